package main

func (c *scaffoldCmd) runVerify(e *env) error { return usagef("not yet") }
