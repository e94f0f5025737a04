package speechocean762

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Speaker is one speaker of the corpus, from spk2gender and spk2age.
type Speaker struct {
	ID     string
	Gender string // "m" or "f"
	Age    int
}

// ChildMaxAge is the oldest age counted as a child when the dev speakers
// are balanced (the train half's speakers are 6 to 37 years old, 52 of
// the 125 are 12 or younger).
const ChildMaxAge = 12

// Stratum is the group a speaker is balanced in: "child" (age up to
// ChildMaxAge) or "adult", then the gender, e.g. "child-f".
func (s Speaker) Stratum() string {
	age := "adult"
	if s.Age <= ChildMaxAge {
		age = "child"
	}
	return age + "-" + s.Gender
}

// Dev-set choice: DevFraction of the train half's speakers, with DevSeed.
const (
	DevFraction = 0.1
	DevSeed     = 762
)

//go:embed dev_speakers.txt
var devSpeakersFile []byte

// DevSpeakers returns the committed dev speakers (dev_speakers.txt, made by
// ChooseDev from the train half with DevFraction and DevSeed).
func DevSpeakers() []string {
	return strings.Fields(string(bytes.TrimSpace(devSpeakersFile)))
}

// DevRank is the key ChooseDev ranks a speaker by within its stratum: the
// hex SHA-256 of the seed, a space and the speaker id, which any tool
// reproduces (printf '762 0001' | sha256sum).
func DevRank(seed int64, id string) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("%d %s", seed, id)))
	return hex.EncodeToString(h[:])
}

// ChooseDev picks round(fraction × speakers) dev speakers balanced over the
// strata (child/adult × gender): each stratum gets its share by the largest
// remainder method (ties to the stratum whose name sorts first), and within
// a stratum the speakers with the smallest DevRank are taken. The result is
// sorted. It depends only on the speakers' ids, genders and ages, and on
// seed.
func ChooseDev(spks []Speaker, fraction float64, seed int64) []string {
	n := int(math.Round(fraction * float64(len(spks))))
	strata := map[string][]Speaker{}
	for _, s := range spks {
		strata[s.Stratum()] = append(strata[s.Stratum()], s)
	}
	names := make([]string, 0, len(strata))
	for k := range strata {
		names = append(names, k)
	}
	sort.Strings(names)
	take := map[string]int{}
	type rem struct {
		name string
		r    float64
	}
	var rems []rem
	given := 0
	for _, k := range names {
		quota := float64(n) * float64(len(strata[k])) / float64(len(spks))
		take[k] = int(math.Floor(quota))
		given += take[k]
		rems = append(rems, rem{k, quota - math.Floor(quota)})
	}
	sort.SliceStable(rems, func(i, j int) bool { return rems[i].r > rems[j].r })
	for i := 0; given < n && i < len(rems); i++ {
		take[rems[i].name]++
		given++
	}
	var dev []string
	for _, k := range names {
		group := strata[k]
		sort.Slice(group, func(i, j int) bool { return DevRank(seed, group[i].ID) < DevRank(seed, group[j].ID) })
		for _, s := range group[:min(take[k], len(group))] {
			dev = append(dev, s.ID)
		}
	}
	sort.Strings(dev)
	return dev
}

// Balance counts speakers per stratum, for reports ("adult-f 5, ...").
func Balance(spks []Speaker, ids []string) string {
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	count := map[string]int{}
	for _, s := range spks {
		if want[s.ID] {
			count[s.Stratum()]++
		}
	}
	var parts []string
	for _, k := range []string{"child-f", "child-m", "adult-f", "adult-m"} {
		parts = append(parts, fmt.Sprintf("%s %d", k, count[k]))
	}
	return strings.Join(parts, ", ")
}
