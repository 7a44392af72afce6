package realtest

import (
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The gh sandbox: a fake GitHub Enterprise API (REST under /api/v3, GraphQL
// at /api/graphql) served over TLS on 127.0.0.1, trusted through
// SSL_CERT_FILE and named by GH_HOST, with a token in GH_ENTERPRISE_TOKEN
// (gh talks to a host other than github.com only over https). It records
// every request, so that calls assert what gh asked for (the GraphQL
// variables, the REST path and query), and answers with the data gh needs
// to print a result.
func init() {
	register(&suite{
		config: "gh",
		needs:  []string{"git"},
		prepare: func(t *testing.T, sb *sandbox) {
			// gh pr create looks at the git repository in its directory.
			run(t, sb.dir, "git", "init", "--quiet", sb.path("repo"))
			sb.rec = &recorder{}
			srv := httptest.NewTLSServer(fakeGitHub(sb.rec))
			t.Cleanup(srv.Close)
			write(t, sb.path("cert.pem"), string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
			t.Setenv("SSL_CERT_FILE", sb.path("cert.pem"))
			t.Setenv("GH_HOST", srv.Listener.Addr().String())
			t.Setenv("GH_ENTERPRISE_TOKEN", "fake-token")
			t.Setenv("GH_CONFIG_DIR", sb.path("gh-config"))
			t.Setenv("GH_TOKEN", "")
			t.Setenv("GITHUB_TOKEN", "")
			sb.url = srv.Listener.Addr().String()
		},
		calls: ghCalls,
	})
}

// ghLoggedOut takes gh's token and host away for one call (with GH_HOST
// set, gh skips its login check); a proxy on a closed port keeps any
// request gh would still make on this machine.
func ghLoggedOut(t *testing.T) {
	t.Setenv("GH_ENTERPRISE_TOKEN", "")
	t.Setenv("GH_HOST", "")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:9")
	t.Setenv("https_proxy", "http://127.0.0.1:9")
}

func ghCalls(sb *sandbox) []call {
	// sent checks that the fake received a request whose path contains
	// path and whose path, query or body holds every text (GraphQL
	// operation names and variables, REST query parameters).
	sent := func(path string, texts ...string) func(t *testing.T, _ outcome) {
		return func(t *testing.T, _ outcome) {
			t.Helper()
			var seen []string
			for _, q := range sb.rec.since(0) {
				if !strings.Contains(q.Path, path) {
					continue
				}
				all := q.Path + "?" + q.Query + "\n" + q.Body
				if !slices.ContainsFunc(texts, func(s string) bool { return !strings.Contains(all, s) }) {
					return
				}
				seen = append(seen, all)
			}
			t.Errorf("the fake GitHub received no request for %s with %q; it received:\n%s", path, texts, strings.Join(seen, "\n"))
		}
	}
	const repo = "acme/widgets"
	return []call{
		{tool: "gh_repo_view", args: a{"repo": repo}, want: []string{"acme/widgets", "Widgets for everyone", "# Widgets"}, check: sent("/readme")},
		{tool: "gh_issue_list", args: a{"repo": repo, "state": "all", "label": []any{"bug", "ui"}, "assignee": "ada", "author": "linus", "limit": 5}, want: []string{"7\tOPEN\tButton is blue"},
			check: sent("/api/graphql", "IssueSearch", "assignee:ada", "author:linus", "label:bug", "label:ui", `"limit":5`)},
		{tool: "gh_issue_list", args: a{"repo": repo, "search": "is:open button"}, want: []string{"Button is blue"}, check: sent("/api/graphql", "is:open button", "repo:acme/widgets")},
		// No token and no login: gh exits 4, which every gh tool labels.
		{tool: "gh_issue_list", args: a{"repo": repo}, before: ghLoggedOut, exit: 4, want: []string{"gh auth login", "[exit code: 4 (not logged in to GitHub (gh auth login, or GH_TOKEN))]"}},
		{tool: "gh_api", args: a{"endpoint": "user"}, before: ghLoggedOut, exit: 4, want: []string{"[exit code: 4 (not logged in to GitHub (gh auth login, or GH_TOKEN))]"}},
		{tool: "gh_issue_view", args: a{"issue": "7", "repo": repo}, want: []string{"Button is blue", "It should be green."}, check: sent("/api/graphql", "IssueByNumber", `"number":7`)},
		{tool: "gh_issue_view", args: a{"issue": "7", "repo": repo, "comments": true}, want: []string{"Agreed."}},
		{tool: "gh_issue_create", args: a{"repo": repo, "title": "New bug", "body": "Steps:\n1. click", "label": []any{"bug"}, "assignee": []any{"@me"}}, want: []string{"/acme/widgets/issues/8"},
			check: sent("/api/graphql", "IssueCreate", `"title":"New bug"`, `"body":"Steps:\n1. click"`, `"labelIds":["L_bug"]`, `"assigneeIds":["U_ada"]`)},
		{tool: "gh_pr_list", args: a{"repo": repo, "state": "merged", "base": "main", "head": "fix", "author": "ada", "label": []any{"ready"}, "limit": 3}, want: []string{"12\tMake the button green\tfix"},
			check: sent("/api/graphql", "PullRequestSearch", "is:merged", "base:main", "head:fix", "author:ada", "label:ready", `"limit":3`)},
		{tool: "gh_pr_list", args: a{"repo": repo, "search": "review:required"}, want: []string{"Make the button green"}, check: sent("/api/graphql", "review:required")},
		{tool: "gh_pr_view", args: a{"pr": "12", "repo": repo}, want: []string{"Make the button green", "Greener."}, check: sent("/api/graphql", "PullRequestByNumber", `"pr_number":12`)},
		{tool: "gh_pr_view", args: a{"pr": "12", "repo": repo, "comments": true}, want: []string{"Looks good."}},
		{tool: "gh_pr_checks", args: a{"pr": "12", "repo": repo}, want: []string{"build", "pass"}, check: sent("/api/graphql", "PullRequestStatusChecks", `"id":"PR_12"`)},
		// Pending checks: exit code 8 (a success) since gh 2.36; older
		// versions such as Debian's 2.23 exit 1.
		{tool: "gh_pr_checks", args: a{"pr": "13", "repo": repo, "required": true}, exit: failed, want: []string{"build\tpending"}},
		{tool: "gh_pr_diff", args: a{"pr": "12", "repo": repo}, want: []string{"+button { color: green; }"}, check: sent("/pulls/12")},
		{tool: "gh_pr_diff", args: a{"pr": "12", "repo": repo, "name_only": true}, want: []string{"style.css"}},
		{tool: "gh_pr_create", args: a{"repo": repo, "title": "Add docs", "body": "Adds docs.", "base": "main", "head": "docs", "draft": true, "label": []any{"docs"}, "reviewer": []any{"ada"}, "dir": sb.path("repo")}, want: []string{"/acme/widgets/pull/14"},
			check: sent("/api/graphql", "PullRequestCreate", `"title":"Add docs"`, `"body":"Adds docs."`, `"baseRefName":"main"`, `"headRefName":"docs"`, `"draft":true`)},
		{tool: "gh_run_list", args: a{"repo": repo, "branch": "main", "limit": 2}, want: []string{"CI", "main", "101"}, check: sent("/actions/runs", "branch=main", "per_page=2")},
		{tool: "gh_run_list", args: a{"repo": repo, "workflow": "ci.yml"}, want: []string{"101"}, check: sent("/actions/workflows/9/runs")},
		{tool: "gh_run_view", args: a{"run_id": "101", "repo": repo, "steps": true}, want: []string{"build", "Run tests"}, check: sent("/actions/runs/101/jobs")},
		{tool: "gh_run_view", args: a{"run_id": "101", "repo": repo, "job": "201"}, want: []string{"build"}, check: sent("/actions/jobs/201")},
		{tool: "gh_run_view", args: a{"run_id": "101", "repo": repo, "log_failed": true}, exit: failed, check: sent("/actions/runs/101/logs")},
		{tool: "gh_run_rerun", args: a{"run_id": "101", "failed": true, "repo": repo}, want: []string{"(no output)"}, check: sent("/actions/runs/101/rerun-failed-jobs")},
		{tool: "gh_run_rerun", args: a{"job": "201", "repo": repo}, want: []string{"(no output)"}, check: sent("/actions/jobs/201/rerun")},
		{tool: "gh_release_list", args: a{"repo": repo, "exclude_drafts": true, "limit": 5}, want: []string{"v1.0.0", "Latest"}, check: sent("/api/graphql", `"perPage":5`)},
		{tool: "gh_release_view", args: a{"repo": repo}, want: []string{"v1.0.0", "First release."}, check: sent("/releases/latest")},
		{tool: "gh_release_view", args: a{"tag": "v1.0.0", "repo": repo}, want: []string{"First release."}, check: sent("/releases/tags/v1.0.0")},
		{tool: "gh_repo_view", args: a{"repo": "-R"}, refused: "starts with '-'"},
		{tool: "gh_issue_comment", args: a{"issue": "7", "repo": repo, "body": "Fixed in #12.\n\nThanks!"}, want: []string{"/acme/widgets/issues/7#issuecomment-1"},
			check: sent("/api/graphql", "CommentCreate", `"subjectId":"I_7"`, `"body":"Fixed in #12.\n\nThanks!"`)},
		{tool: "gh_pr_comment", args: a{"pr": "12", "repo": repo, "body": "LGTM"}, want: []string{"/acme/widgets/pull/12#issuecomment-1"},
			check: sent("/api/graphql", "CommentCreate", `"subjectId":"PR_12"`, `"body":"LGTM"`)},
		{tool: "gh_api", args: a{"endpoint": "repos/acme/widgets/pulls/12/comments", "field": []any{"per_page=50", "sort=created"}, "jq": ".[] | .path + \": \" + .body"}, want: []string{"style.css: Use a variable here."},
			check: sent("/repos/acme/widgets/pulls/12/comments", "per_page=50", "sort=created")},
		{tool: "gh_api", args: a{"endpoint": "/repos/acme/widgets/pulls/12/comments", "paginate": true}, want: []string{`"path":"style.css"`}},
		// A filter may name a field env; env and $ENV, gh's environment
		// and its token (TestToolsHideTheServersEnvironment), it may not.
		{tool: "gh_api", args: a{"endpoint": "repos/acme/widgets/pulls/12/comments", "jq": `.[] | .path + (.env // "-") + (.environment // "-")`}, want: []string{"style.css--"}},
		{tool: "gh_api", args: a{"endpoint": "repos/acme/widgets/pulls/12/comments", "jq": `"\(env.GH_ENTERPRISE_TOKEN)"`}, refused: "does not match pattern"},
		// GET only, and only the REST API: no GraphQL (which can change
		// data), no other host's URL, no field read from a file.
		{tool: "gh_api", args: a{"endpoint": "graphql", "field": "query=mutation{x}"}, refused: "does not match pattern"},
		{tool: "gh_api", args: a{"endpoint": "https://example.invalid/repos/x"}, refused: "does not match pattern"},
		{tool: "gh_api", args: a{"endpoint": "repos/../graphql"}, refused: "does not match pattern"},
		{tool: "gh_api", args: a{"endpoint": "repos/acme/widgets/contents/docs/a.v2.md?ref=main"}, exit: 1, want: []string{"no handler for GET /api/v3/repos/acme/widgets/contents/docs/a.v2.md"}},
		{tool: "gh_api", args: a{"endpoint": "repos/acme/widgets/pulls/12/comments", "field": "body=@/etc/passwd"}, check: sent("/repos/acme/widgets/pulls/12/comments", "body=%40%2Fetc%2Fpasswd")},
	}
}

// fakeGitHub answers the GitHub API requests of the bundled gh tools.
func fakeGitHub(rec *recorder) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.add(request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
		w.Header().Set("X-GitHub-Enterprise-Version", "3.9.0")
		js := func(code int, s string) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			io.WriteString(w, s)
		}
		p := strings.TrimPrefix(r.URL.Path, "/api/v3")
		if r.URL.Path == "/api/graphql" {
			var q struct {
				Query     string         `json:"query"`
				Variables map[string]any `json:"variables"`
			}
			json.Unmarshal(body, &q)
			if q.Query == "" {
				q.Query = string(body)
			}
			js(200, ghGraphQL(q.Query, q.Variables))
			return
		}
		switch {
		case r.Method == "POST" && (p == "/repos/acme/widgets/actions/runs/101/rerun-failed-jobs" || p == "/repos/acme/widgets/actions/jobs/201/rerun"):
			js(201, `{}`)
		case p == "/repos/acme/widgets/pulls/12/comments" && r.Method == "GET":
			js(200, `[{"id":1,"path":"style.css","line":1,"body":"Use a variable here.","user":{"login":"linus"}}]`)
		case p == "/repos/acme/widgets/readme":
			js(200, `{"name":"README.md","path":"README.md","content":"IyBXaWRnZXRzCg==","encoding":"base64"}`)
		case p == "/repos/acme/widgets/pulls/12" && strings.Contains(r.Header.Get("Accept"), "diff"):
			io.WriteString(w, "diff --git a/style.css b/style.css\n--- a/style.css\n+++ b/style.css\n@@ -1 +1 @@\n-button { color: blue; }\n+button { color: green; }\n")
		case p == "/repos/acme/widgets/actions/runs" || p == "/repos/acme/widgets/actions/workflows/9/runs":
			js(200, `{"total_count":1,"workflow_runs":[`+ghRun(r.Host)+`]}`)
		case p == "/repos/acme/widgets/actions/workflows/ci.yml":
			js(200, `{"id":9,"name":"CI","path":".github/workflows/ci.yml","state":"active"}`)
		case strings.HasPrefix(p, "/repos/acme/widgets/actions/workflows"):
			js(200, `{"total_count":1,"workflows":[{"id":9,"name":"CI","path":".github/workflows/ci.yml","state":"active"}]}`)
		case p == "/repos/acme/widgets/actions/runs/101":
			js(200, ghRun(r.Host))
		case p == "/repos/acme/widgets/actions/runs/101/jobs":
			js(200, `{"total_count":1,"jobs":[`+ghJob+`]}`)
		case p == "/repos/acme/widgets/actions/jobs/201":
			js(200, ghJob)
		case p == "/repos/acme/widgets/actions/runs/101/logs":
			js(404, `{"message":"fake GitHub: logs expired"}`)
		case strings.HasPrefix(p, "/repos/acme/widgets/actions/runs/101/"):
			js(200, `{"total_count":0,"artifacts":[],"check_runs":[]}`)
		case strings.HasPrefix(p, "/repos/acme/widgets/check-runs/"):
			js(200, `[]`)
		case p == "/repos/acme/widgets/releases/latest", p == "/repos/acme/widgets/releases/tags/v1.0.0", p == "/repos/acme/widgets/releases/1":
			js(200, `{"id":1,"tag_name":"v1.0.0","name":"v1.0.0","body":"First release.","draft":false,"prerelease":false,
				"created_at":"2024-01-01T00:00:00Z","published_at":"2024-01-01T00:00:00Z","html_url":"https://example.invalid/acme/widgets/releases/v1.0.0",
				"author":{"login":"ada"},"assets":[]}`)
		default:
			js(404, fmt.Sprintf(`{"message":"fake GitHub: no handler for %s %s"}`, r.Method, r.URL.Path))
		}
	})
}

var ghTypeQuery = regexp.MustCompile(`(\w+): __type\(name: "\w+"\)`)

// ghRun is the Actions run 101 (failed in its "Run tests" step) as the
// REST API gives it; host is the fake server's.
func ghRun(host string) string {
	return `{"id":101,"name":"CI","display_title":"Make the button green","head_branch":"main","head_sha":"abc123","run_number":5,"event":"push",
	"status":"completed","conclusion":"failure","workflow_id":9,"created_at":"2024-01-01T00:00:00Z","updated_at":"2024-01-01T00:05:00Z",
	"run_started_at":"2024-01-01T00:00:00Z","html_url":"https://example.invalid/acme/widgets/actions/runs/101",
	"jobs_url":"https://` + host + `/api/v3/repos/acme/widgets/actions/runs/101/jobs","repository":{"full_name":"acme/widgets","name":"widgets","owner":{"login":"acme"}},
	"head_commit":{"message":"green"},"actor":{"login":"ada"}}`
}

const ghJob = `{"id":201,"run_id":101,"name":"build","status":"completed","conclusion":"failure","started_at":"2024-01-01T00:00:00Z","completed_at":"2024-01-01T00:05:00Z",
	"html_url":"https://example.invalid/acme/widgets/actions/runs/101/job/201",
	"steps":[{"name":"Run tests","status":"completed","conclusion":"failure","number":1}]}`

var (
	ghOperation  = regexp.MustCompile(`(?:query|mutation)\s+(\w+)`)
	ghUserAlias  = regexp.MustCompile(`(u\d+): user\(login:"([^"]+)"\)`)
	ghLabelAlias = regexp.MustCompile(`(l\d+): label\(name:"([^"]+)"\)`)
)

// ghGraphQL answers one GraphQL query of gh by its operation name, with
// the fields that operation asks for.
func ghGraphQL(query string, vars map[string]any) string {
	page := `"pageInfo":{"hasNextPage":false,"endCursor":""}`
	issue := `{"id":"I_7","number":7,"title":"Button is blue","state":"OPEN","url":"https://example.invalid/acme/widgets/issues/7","body":"It should be green.",
		"createdAt":"2024-01-01T00:00:00Z","updatedAt":"2024-01-02T00:00:00Z","author":{"login":"linus"},"labels":{"nodes":[{"name":"bug"}],"totalCount":1},
		"assignees":{"nodes":[],"totalCount":0},"comments":{"nodes":[{"author":{"login":"ada"},"body":"Agreed.","createdAt":"2024-01-02T00:00:00Z","authorAssociation":"MEMBER"}],"totalCount":1},
		"reactionGroups":[],"projectCards":{"nodes":[],"totalCount":0}}`
	checks := func(number int) string {
		check := `{"__typename":"CheckRun","name":"build","status":"COMPLETED","conclusion":"SUCCESS","startedAt":"2024-01-01T00:00:00Z","completedAt":"2024-01-01T00:05:00Z","detailsUrl":"https://example.invalid/ci/1","isRequired":true}`
		if number == 13 {
			check = `{"__typename":"CheckRun","name":"build","status":"IN_PROGRESS","conclusion":"","startedAt":"2024-01-01T00:00:00Z","detailsUrl":"https://example.invalid/ci/2","isRequired":true}`
		}
		return `{"nodes":[{"commit":{"oid":"abc123","statusCheckRollup":{"contexts":{"nodes":[` + check + `],` + page + `}}}}]}`
	}
	pr := func(number int) string {
		return fmt.Sprintf(`{"id":"PR_%d","number":%d,"title":"Make the button green","state":"OPEN","url":"https://example.invalid/acme/widgets/pull/%d","body":"Greener.",
		"createdAt":"2024-01-01T00:00:00Z","author":{"login":"ada"},"headRefName":"fix","baseRefName":"main","isDraft":false,
		"isCrossRepository":false,"headRepositoryOwner":{"login":"acme"},"additions":1,"deletions":1,"mergeable":"MERGEABLE","commits":{"totalCount":1},
		"labels":{"nodes":[],"totalCount":0},"assignees":{"nodes":[],"totalCount":0},"reviewRequests":{"nodes":[]},"reviews":{"nodes":[],"totalCount":0},
		"comments":{"nodes":[{"author":{"login":"linus"},"body":"Looks good.","createdAt":"2024-01-02T00:00:00Z","authorAssociation":"MEMBER"}],"totalCount":1},
		"statusCheckRollup":%s,"reactionGroups":[],"projectCards":{"nodes":[],"totalCount":0}}`, number, number, number, checks(number))
	}
	number := func(key string) int { n, _ := vars[key].(float64); return int(n) }
	if m := ghTypeQuery.FindAllStringSubmatch(query, -1); m != nil {
		// Feature detection: no optional fields, so that gh asks only
		// for the fields every server has.
		var parts []string
		for _, x := range m {
			parts = append(parts, fmt.Sprintf(`%q:{"fields":[]}`, x[1]))
		}
		return `{"data":{` + strings.Join(parts, ",") + `}}`
	}
	op := ""
	if m := ghOperation.FindStringSubmatch(query); m != nil {
		op = m[1]
	}
	switch op {
	case "RepositoryInfo":
		return `{"data":{"repository":{"id":"R_1","name":"widgets","owner":{"login":"acme","id":"O_1"},"description":"Widgets for everyone","hasIssuesEnabled":true,
			"hasWikiEnabled":false,"viewerPermission":"ADMIN","defaultBranchRef":{"name":"main"},"parent":null,"mergeCommitAllowed":true,"rebaseMergeAllowed":true,"squashMergeAllowed":true}}}`
	case "UserCurrent":
		return `{"data":{"viewer":{"login":"ada"}}}`
	case "RepositoryResolveMetadataIDs":
		var users, labels []string
		for _, m := range ghUserAlias.FindAllStringSubmatch(query, -1) {
			users = append(users, fmt.Sprintf(`%q:{"id":"U_%s","login":%q}`, m[1], m[2], m[2]))
		}
		for _, m := range ghLabelAlias.FindAllStringSubmatch(query, -1) {
			labels = append(labels, fmt.Sprintf(`%q:{"id":"L_%s","name":%q}`, m[1], m[2], m[2]))
		}
		return `{"data":{` + strings.Join(append(users, `"repository":{`+strings.Join(labels, ",")+`}`), ",") + `}}`
	case "CommentCreate":
		kind := "issues/7"
		if input, _ := vars["input"].(map[string]any); input != nil && input["subjectId"] == "PR_12" {
			kind = "pull/12"
		}
		return `{"data":{"addComment":{"commentEdge":{"node":{"url":"https://example.invalid/acme/widgets/` + kind + `#issuecomment-1"}}}}}`
	case "IssueCreate":
		return `{"data":{"createIssue":{"issue":{"id":"I_8","url":"https://example.invalid/acme/widgets/issues/8"}}}}`
	case "PullRequestCreate":
		return `{"data":{"createPullRequest":{"pullRequest":{"id":"PR_14","url":"https://example.invalid/acme/widgets/pull/14"}}}}`
	case "PullRequestCreateMetadata", "PullRequestCreateRequestReviews":
		return `{"data":{}}`
	case "IssueSearch":
		return `{"data":{"repository":{"hasIssuesEnabled":true},"search":{"issueCount":1,"nodes":[` + issue + `],` + page + `}}}`
	case "IssueList":
		return `{"data":{"repository":{"hasIssuesEnabled":true,"issues":{"totalCount":1,"nodes":[` + issue + `],` + page + `}}}}`
	case "IssueByNumber":
		return `{"data":{"repository":{"hasIssuesEnabled":true,"issue":{"__typename":"Issue",` + issue[1:] + `}}}`
	case "PullRequestSearch":
		return `{"data":{"search":{"issueCount":1,"nodes":[` + pr(12) + `],` + page + `}}}`
	case "PullRequestList":
		return `{"data":{"repository":{"pullRequests":{"totalCount":1,"nodes":[` + pr(12) + `],` + page + `}}}}`
	case "PullRequestByNumber":
		return `{"data":{"repository":{"pullRequest":` + pr(number("pr_number")) + `}}}`
	case "CommentsForIssue":
		return `{"data":{"node":{"comments":{"nodes":[{"author":{"login":"ada"},"body":"Agreed.","createdAt":"2024-01-02T00:00:00Z","authorAssociation":"MEMBER"}],"totalCount":1,` + page + `}}}}`
	case "PullRequestStatusChecks":
		id, _ := vars["id"].(string)
		n := 12
		if id == "PR_13" {
			n = 13
		}
		return `{"data":{"node":{"statusCheckRollup":` + checks(n) + `}}}`
	case "PullRequestForBranch", "PullRequestForRun":
		return `{"data":{"repository":{"pullRequests":{"nodes":[]},"defaultBranchRef":{"name":"main"}}}}`
	case "RepositoryReleaseList":
		return `{"data":{"repository":{"releases":{"nodes":[{"name":"v1.0.0","tagName":"v1.0.0","isDraft":false,"isLatest":true,"isPrerelease":false,
			"createdAt":"2024-01-01T00:00:00Z","publishedAt":"2024-01-01T00:00:00Z"}],` + page + `}}}}`
	case "RepositoryReleaseByTag":
		return `{"data":{"repository":{"release":{"databaseId":1,"isDraft":false}}}}`
	}
	b, _ := json.Marshal("fake GitHub: no answer for " + query)
	return `{"errors":[{"message":` + string(b) + `}]}`
}
