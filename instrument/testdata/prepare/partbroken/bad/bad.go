package bad

func F() int {
	return "not an int"
}
