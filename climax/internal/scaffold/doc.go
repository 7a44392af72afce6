// Package scaffold drafts CLImax configs from installed programs and
// checks configs against them: the work behind `climax scaffold`
// (docs/scaffold.md).
//
// It runs a program only in read-only forms — `--help` and its variants,
// cobra's `__complete`, git's `--list-cmds` and `--git-completion-helper`
// — and only inside a [Sandbox]: no stdin, an empty temporary working
// directory, a minimal environment without credentials, a time limit and
// an output cap.
//
// # Drafting
//
// [Run] resolves the program, [Discover]s its command tree (reading each
// help text with [ParseHelp], the layouts of pflag/cobra, GNU getopt,
// clap, Go's flag, argparse and git's parse-options), and writes the tree
// as YAML with [Draft]: one tool per leaf command, typed args, operands,
// global args, and read_only/destructive guesses marked for review.
//
//	res, err := scaffold.Run(ctx, scaffold.Request{Program: "terraform"})
//	// res.YAML loads with config.Parse; err != nil with a Result is a partial draft.
//
// # Verifying
//
// [Verify] runs each tool's flags with the help flag after a control with
// a bogus flag, and reports every flag as [Accepted], [Rejected] or
// [Uninformative].
package scaffold
