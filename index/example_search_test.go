package index_test

import (
	"github.com/climax-mcp/climax/index/config"

	"fmt"

	"github.com/climax-mcp/climax/index"
)

// Search ranks tools by relevance: words of the query are matched as
// terms (in any form: "containers", "running"), tool-name hits weigh more
// than description hits and those more than the CLI's tags and category,
// tools matching more of the query come first, and weak matches are left
// out (docker_images matches only "list").
func ExampleIndex_Search() {
	docker := &config.Config{
		Name:     "docker",
		Category: "containers",
		Tags:     []string{"devops"},
		Tools: []config.Tool{
			{Name: "docker_ps", Description: "List running containers"},
			{Name: "docker_images", Description: "List local images"},
			{Name: "docker_stop", Description: "Stop a running container"},
			{Name: "docker_rm", Description: "Remove a container"},
		},
	}
	git := &config.Config{
		Name:     "git",
		Category: "vcs",
		Tags:     []string{"version-control"},
		Tools: []config.Tool{
			{Name: "git_status", Description: "Show the working tree status"},
			{Name: "git_log", Description: "Show the commit history"},
		},
	}
	ix, _, err := index.New([]*config.Config{docker, git}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, q := range []string{"list running containers", "delete a container", "version control", "history"} {
		fmt.Printf("%s:", q)
		for _, e := range ix.Search(q, "", "", 3) {
			fmt.Printf(" %s", e.ToolName)
		}
		fmt.Println()
	}
	// Output:
	// list running containers: docker_ps docker_stop
	// delete a container: docker_rm
	// version control: git_status git_log
	// history: git_log
}
