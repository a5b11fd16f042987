package checked

func bad(replacement string) {}
func good()                  {}

func F() {
	bad("good()")         // want `call of bad`
	bad("undefined()")    // want `call of bad`
	bad("good() }")       // want `call of bad`
	bad("good()")         // want `call of bad`
	bad("x := 1")         // want `call of bad`
	bad("good(); good()") // want `call of bad`
}
