package loopy

// MapClosures returns one closure per entry of m; before Go 1.22 they all
// see the last key and value.
func MapClosures(m map[int]int) []func() int {
	var fs []func() int
	for k, v := range m {
		fs = append(fs, func() int { return k*100 + v })
	}
	return fs
}

// MapOrder returns the keys of m in the order range produces them.
func MapOrder(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
