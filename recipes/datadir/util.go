package datadir

import "sort"

func sortStrings(s []string) { sort.Strings(s) }

func setOf(keys []string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}
