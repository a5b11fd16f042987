# ctrllint as a pre-commit hook, run by Debian's pre-commit (docs/ci.md):
# the whole module (test.sh), and only the packages of the staged files, as
# a plain git hook and under pre-commit (test-staged.sh).
.PHONY: precommit
TEST_EXTRA += precommit

precommit: build
	@hack/precommit/test.sh
	@hack/precommit/test-staged.sh
