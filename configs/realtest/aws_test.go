package realtest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/climax-mcp/climax/configs"
	"github.com/climax-mcp/climax/executor"
	"github.com/climax-mcp/climax/index/config"
)

// The aws sandbox: a fake AWS endpoint on 127.0.0.1 for every service
// (AWS_ENDPOINT_URL, which the AWS CLI reads since botocore 1.31), fake
// credentials and region, and a local file to upload. The fake answers
// the S3 REST calls and the STS, EC2, CloudFormation and IAM query calls,
// Lambda's REST and CloudWatch Logs' JSON calls with small documents, and
// records every request.
func init() {
	register(&suite{
		config: "aws",
		prepare: func(t *testing.T, sb *sandbox) {
			sb.rec = &recorder{}
			srv := httptest.NewServer(fakeAWS(sb.rec))
			t.Cleanup(srv.Close)
			sb.url = srv.URL
			t.Setenv("AWS_ENDPOINT_URL", srv.URL)
			t.Setenv("AWS_ACCESS_KEY_ID", "AKIAFAKE")
			t.Setenv("AWS_SECRET_ACCESS_KEY", "fake-secret")
			t.Setenv("AWS_SESSION_TOKEN", "")
			t.Setenv("AWS_REGION", "us-east-1")
			t.Setenv("AWS_DEFAULT_REGION", "us-east-1")
			unsetenv(t, "AWS_PROFILE") // an empty one names a profile ""
			t.Setenv("AWS_CONFIG_FILE", sb.path("aws-config"))
			t.Setenv("AWS_SHARED_CREDENTIALS_FILE", sb.path("aws-credentials"))
			// A second profile with its own key and region, for the
			// tools' profile arg.
			write(t, sb.path("aws-config"), "[profile work]\nregion = eu-central-1\n")
			write(t, sb.path("aws-credentials"), "[work]\naws_access_key_id = AKIAWORK\naws_secret_access_key = work-secret\n")
			t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
			t.Setenv("AWS_MAX_ATTEMPTS", "1")
			write(t, sb.path("site", "index.html"), "<h1>hi</h1>\n")
			out, _ := exec.Command("aws", "--version").CombinedOutput()
			version := strings.Join(strings.Fields(string(out))[:1], "")
			// Older CLIs (before v2.13 and v1.29) ignore AWS_ENDPOINT_URL
			// and would call the real AWS: none of their calls runs.
			probe := exec.Command("aws", "sts", "get-caller-identity", "--cli-connect-timeout", "2", "--cli-read-timeout", "2")
			if probe.Run(); sb.rec.len() == 0 {
				sb.skipTool(version+" ignores AWS_ENDPOINT_URL (AWS CLI 2.13 or 1.29 and later read it)", awsTools...)
			}
			if strings.HasPrefix(version, "aws-cli/1.") {
				sb.skipTool("logs tail needs AWS CLI v2 (this is "+version+")", "aws_logs_tail")
			}
		},
		calls: func(sb *sandbox) []call {
			sent := func(method, path string, texts ...string) func(t *testing.T, _ outcome) {
				return func(t *testing.T, _ outcome) {
					t.Helper()
					q, ok := sb.rec.find(method, path)
					if !ok {
						t.Fatalf("no %s %s request; got %+v", method, path, sb.rec.since(0))
					}
					for _, s := range texts {
						if !strings.Contains(q.Path+"?"+q.Query+"\n"+q.Body, s) {
							t.Errorf("%s %s lacks %q: %+v", method, path, s, q)
						}
					}
				}
			}
			// signed checks the last request's signature scope: its key
			// and region (--profile and --region reached aws).
			signed := func(texts ...string) func(t *testing.T, _ outcome) {
				return func(t *testing.T, _ outcome) {
					t.Helper()
					reqs := sb.rec.since(0)
					if len(reqs) == 0 {
						t.Fatal("no request")
					}
					auth := http.Header(reqs[len(reqs)-1].Header).Get("Authorization")
					for _, s := range texts {
						if !strings.Contains(auth, s) {
							t.Errorf("Authorization %q lacks %q", auth, s)
						}
					}
				}
			}
			return []call{
				{tool: "aws_sts_get_caller_identity", want: []string{`"Account": "123456789012"`}, check: sent("POST", "/", "Action=GetCallerIdentity")},
				{tool: "aws_sts_get_caller_identity", args: a{"profile": "work"}, want: []string{`"Account": "123456789012"`}, check: signed("Credential=AKIAWORK/")},
				{tool: "aws_configure_list", want: []string{"us-east-1", "env"}},
				{tool: "aws_s3_ls", want: []string{"prod-logs"}},
				{tool: "aws_s3_ls", args: a{"path": "s3://prod-logs/", "recursive": true}, want: []string{"app.log"}, check: sent("GET", "/prod-logs", "list-type=2")},
				{tool: "aws_s3_ls", args: a{"path": "/etc/passwd"}, refused: "does not match pattern"},
				{tool: "aws_s3_cp", args: a{"source": "index.html", "destination": "s3://prod-logs/site/index.html", "dir": sb.path("site")}, want: []string{"upload: ./index.html to s3://prod-logs/site/index.html"}, check: sent("PUT", "/prod-logs/site/index.html", "<h1>hi</h1>")},
				{tool: "aws_s3_sync", args: a{"source": sb.path("site"), "destination": "s3://prod-logs/www", "dryrun": true}, want: []string{"(dryrun) upload", "s3://prod-logs/www/index.html"}},
				{tool: "aws_s3_rm", args: a{"path": "s3://prod-logs/app.log"}, want: []string{"delete: s3://prod-logs/app.log"}, check: sent("DELETE", "/prod-logs/app.log")},
				{tool: "aws_s3_presign", args: a{"path": "s3://prod-logs/app.log", "expires_in": 60}, want: []string{"/prod-logs/app.log?", "Expires="}},
				{tool: "aws_ec2_describe_instances", args: a{"filter": "Name=instance-state-name,Values=running,stopped"}, want: []string{`"InstanceId": "i-0abc"`, "web-1"}, check: sent("POST", "/", "Action=DescribeInstances", "Filter.1.Name=instance-state-name", "Filter.1.Value.2=stopped")},
				{tool: "aws_ec2_describe_instances", args: a{"region": "us-west-2"}, want: []string{"web-1"}, check: signed("Credential=AKIAFAKE/", "/us-west-2/ec2/")},
				{tool: "aws_ec2_start_instances", args: a{"instance_ids": []any{"i-0abc", "i-0def"}}, want: []string{"pending"}, check: sent("POST", "/", "Action=StartInstances", "InstanceId.1=i-0abc", "InstanceId.2=i-0def")},
				{tool: "aws_ec2_stop_instances", args: a{"instance_ids": "i-0abc"}, want: []string{"stopping"}, check: sent("POST", "/", "Action=StopInstances")},
				{tool: "aws_ec2_terminate_instances", args: a{"instance_ids": []any{"i-0abc"}}, want: []string{"shutting-down"}, check: sent("POST", "/", "Action=TerminateInstances")},
				{tool: "aws_logs_tail", args: a{"group": "/aws/lambda/hello", "since": "1h"}, want: []string{"hello from lambda"}},
				{tool: "aws_lambda_list_functions", want: []string{`"FunctionName": "hello"`}, check: sent("GET", "/2015-03-31/functions")},
				{tool: "aws_cloudformation_describe_stacks", args: a{"stack_name": "app"}, want: []string{"CREATE_COMPLETE"}, check: sent("POST", "/", "Action=DescribeStacks", "StackName=app")},
				{tool: "aws_iam_list_roles", want: []string{"app-role"}, check: sent("POST", "/", "Action=ListRoles")},
			}
		},
	})
}

// awsTools are the tools of the bundled aws config.
var awsTools = []string{"aws_sts_get_caller_identity", "aws_configure_list", "aws_s3_ls", "aws_s3_cp", "aws_s3_sync", "aws_s3_rm",
	"aws_s3_presign", "aws_ec2_describe_instances", "aws_ec2_start_instances", "aws_ec2_stop_instances",
	"aws_ec2_terminate_instances", "aws_logs_tail", "aws_lambda_list_functions", "aws_cloudformation_describe_stacks", "aws_iam_list_roles"}

// TestAWSTerminateResolver runs the resolver of aws_ec2_terminate_instances
// with the real AWS CLI against the fake endpoint: the approval question
// names the instances by their Name tags (an unnamed one as such), looked
// up in the call's region;
// where aws cannot look them up (no region anywhere, as on a machine
// without "aws configure"), the question says so rather than showing the
// lookup's own arguments as names.
func TestAWSTerminateResolver(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real aws; not with -short")
	}
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("aws not installed")
	}
	c, err := config.LoadFS(configs.FS, "aws.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	srv := httptest.NewServer(fakeAWS(rec))
	defer srv.Close()
	dir := t.TempDir()
	for k, v := range map[string]string{"AWS_ENDPOINT_URL": srv.URL, "AWS_ACCESS_KEY_ID": "AKIAFAKE", "AWS_SECRET_ACCESS_KEY": "x",
		"AWS_CONFIG_FILE": dir + "/c", "AWS_SHARED_CREDENTIALS_FILE": dir + "/k", "AWS_EC2_METADATA_DISABLED": "true", "AWS_MAX_ATTEMPTS": "1"} {
		t.Setenv(k, v)
	}
	unsetenv(t, "AWS_PROFILE")
	var rt *config.ResolvedTool
	for i := range c.Tools {
		if c.Tools[i].Name == "aws_ec2_terminate_instances" {
			rt = &config.ResolvedTool{Tool: &c.Tools[i], CLI: c}
		}
	}
	ids := []any{"i-0abc", "i-0def"}
	for _, tc := range []struct {
		name, envRegion string
		args            map[string]any
		want, failure   string // failure: a text of the one failure, if any
		scope           string // the resolver request's signing scope
	}{
		{name: "region from the environment", envRegion: "us-east-1", args: map[string]any{"instance_ids": ids},
			want: "Terminate EC2 instance(s) i-0abc i-0def (i-0abc: web-1, i-0def: no Name tag)? This cannot be undone.", scope: "/us-east-1/ec2/"},
		{name: "region of the call", args: map[string]any{"instance_ids": ids, "region": "us-west-2"},
			want: "Terminate EC2 instance(s) i-0abc i-0def (i-0abc: web-1, i-0def: no Name tag)? This cannot be undone.", scope: "/us-west-2/ec2/"},
		{name: "no region", args: map[string]any{"instance_ids": ids},
			want:    "Terminate EC2 instance(s) i-0abc i-0def (<not looked up>)? This cannot be undone.",
			failure: "{_names} could not be looked up: exit status 255: You must specify a region"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"AWS_REGION", "AWS_DEFAULT_REGION"} {
				if tc.envRegion != "" {
					t.Setenv(k, tc.envRegion)
				} else {
					unsetenv(t, k)
				}
			}
			cmd, err := executor.Build(rt, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			before := rec.len()
			res := executor.New().Resolve(context.Background(), rt, cmd)
			if tc.failure == "" && rec.len() == before {
				t.Skipf("this aws ignores AWS_ENDPOINT_URL (%v)", res.Failures)
			}
			got := executor.ConfirmText(rt.Tool, cmd, res)
			failed := strings.Join(res.Failures, "\n")
			if got != tc.want || (tc.failure == "") != (failed == "") || !strings.Contains(failed, tc.failure) {
				t.Fatalf("question %q (failures %q), want %q (failure %q)", got, failed, tc.want, tc.failure)
			}
			if tc.failure != "" {
				return
			}
			q := rec.since(before)[0]
			if !strings.Contains(q.Body, "Filter.1.Value.1=i-0abc") || !strings.Contains(q.Body, "Filter.1.Value.2=i-0def") ||
				!strings.Contains(http.Header(q.Header).Get("Authorization"), tc.scope) {
				t.Errorf("resolver request %+v, want one signed for %s", q, tc.scope)
			}
		})
	}
}

// unsetenv removes key from the environment for the rest of the test.
func unsetenv(t *testing.T, key string) {
	t.Setenv(key, "") // restores the old value at the end
	os.Unsetenv(key)
}

// fakeAWS answers the AWS calls of the bundled aws config.
func fakeAWS(rec *recorder) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.add(request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header, Body: string(body)})
		xml := func(s string) {
			w.Header().Set("Content-Type", "text/xml")
			io.WriteString(w, s)
		}
		if target := r.Header.Get("X-Amz-Target"); target != "" { // JSON protocol: CloudWatch Logs
			w.Header().Set("Content-Type", "application/x-amz-json-1.1")
			if strings.HasSuffix(target, "FilterLogEvents") {
				io.WriteString(w, `{"events":[{"logStreamName":"2026/01/01/[$LATEST]abc","timestamp":1767225600000,"message":"hello from lambda","ingestionTime":1767225600000,"eventId":"1"}],"searchedLogStreams":[]}`)
				return
			}
			io.WriteString(w, `{}`)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/2015-03-31/functions") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"Functions":[{"FunctionName":"hello","Runtime":"python3.12","MemorySize":128,"Timeout":3,"LastModified":"2026-01-01T00:00:00.000+0000"}]}`)
			return
		}
		form, _ := url.ParseQuery(string(body))
		switch form.Get("Action") {
		case "GetCallerIdentity":
			xml(`<GetCallerIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><GetCallerIdentityResult><Arn>arn:aws:iam::123456789012:user/test</Arn><UserId>AIDATEST</UserId><Account>123456789012</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></GetCallerIdentityResponse>`)
			return
		case "DescribeInstances":
			xml(`<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>1</requestId><reservationSet><item><reservationId>r-1</reservationId><ownerId>123456789012</ownerId><instancesSet><item><instanceId>i-0abc</instanceId><instanceType>t3.micro</instanceType><instanceState><code>16</code><name>running</name></instanceState><tagSet><item><key>Name</key><value>web-1</value></item></tagSet></item><item><instanceId>i-0def</instanceId><instanceType>t3.micro</instanceType><instanceState><code>80</code><name>stopped</name></instanceState></item></instancesSet></item></reservationSet></DescribeInstancesResponse>`)
			return
		case "StartInstances", "StopInstances", "TerminateInstances":
			action := form.Get("Action")
			state := map[string]string{"StartInstances": "pending", "StopInstances": "stopping", "TerminateInstances": "shutting-down"}[action]
			xml(`<` + action + `Response xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>1</requestId><instancesSet><item><instanceId>i-0abc</instanceId><currentState><code>0</code><name>` + state + `</name></currentState><previousState><code>16</code><name>running</name></previousState></item></instancesSet></` + action + `Response>`)
			return
		case "DescribeStacks":
			xml(`<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member><StackName>app</StackName><StackId>arn:aws:cloudformation:us-east-1:123456789012:stack/app/1</StackId><CreationTime>2026-01-01T00:00:00Z</CreationTime><StackStatus>CREATE_COMPLETE</StackStatus></member></Stacks></DescribeStacksResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></DescribeStacksResponse>`)
			return
		case "ListRoles":
			xml(`<ListRolesResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/"><ListRolesResult><IsTruncated>false</IsTruncated><Roles><member><Path>/</Path><RoleName>app-role</RoleName><RoleId>AROATEST</RoleId><Arn>arn:aws:iam::123456789012:role/app-role</Arn><CreateDate>2026-01-01T00:00:00Z</CreateDate></member></Roles></ListRolesResult><ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></ListRolesResponse>`)
			return
		}
		// S3, path-style: /BUCKET/KEY.
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/":
			xml(`<ListAllMyBucketsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Owner><ID>1</ID></Owner><Buckets><Bucket><Name>prod-logs</Name><CreationDate>2026-01-01T00:00:00.000Z</CreationDate></Bucket></Buckets></ListAllMyBucketsResult>`)
		case r.Method == http.MethodGet && r.URL.Query().Has("list-type"):
			contents := `<Contents><Key>app.log</Key><LastModified>2026-01-01T00:00:00.000Z</LastModified><ETag>"1"</ETag><Size>42</Size><StorageClass>STANDARD</StorageClass></Contents>`
			if p := r.URL.Query().Get("prefix"); p != "" && !strings.HasPrefix("app.log", p) {
				contents = ""
			}
			xml(`<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>prod-logs</Name><Prefix></Prefix><KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>` + contents + `</ListBucketResult>`)
		case r.Method == http.MethodHead:
			w.Header().Set("Content-Length", "42")
			w.Header().Set("Last-Modified", "Thu, 01 Jan 2026 00:00:00 GMT")
			w.Header().Set("ETag", `"1"`)
		case r.Method == http.MethodPut:
			w.Header().Set("ETag", `"2"`)
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		default:
			w.WriteHeader(http.StatusNotImplemented)
		}
	})
}
