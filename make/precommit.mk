# ctrllint as a pre-commit hook, run by Debian's pre-commit (docs/ci.md).
.PHONY: precommit
TEST_EXTRA += precommit

precommit: build
	@hack/precommit/test.sh
