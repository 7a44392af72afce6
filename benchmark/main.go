// Command benchmark measures CLImax: the token cost of tools/list in
// classic and discovery mode, and performance figures.
package main

func main() {}
