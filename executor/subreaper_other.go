//go:build !linux

package executor

import "errors"

// EnableSubreaper returns [errors.ErrUnsupported]: only Linux has child
// subreapers. On Windows a call's whole tree is in its job object anyway;
// elsewhere a descendant that leaves the command's process group survives
// the call.
func EnableSubreaper() error { return errors.ErrUnsupported }

// KillDescendants does nothing here: on Windows a command's job object
// ends its whole tree when this process exits; elsewhere the commands'
// descendants cannot be told apart once they leave their process group.
func KillDescendants() {}
