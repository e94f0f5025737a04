package speechocean762

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// speakersLike returns speakers in the train half's strata sizes: adult-f
// 45, adult-m 28, child-f 22, child-m 30.
func speakersLike() []Speaker {
	var spks []Speaker
	add := func(n int, gender string, age int) {
		for i := 0; i < n; i++ {
			spks = append(spks, Speaker{ID: fmt.Sprintf("%04d", len(spks)+1), Gender: gender, Age: age})
		}
	}
	add(45, "f", 21)
	add(28, "m", 25)
	add(22, "f", ChildMaxAge)
	add(30, "m", 7)
	return spks
}

func TestChooseDev(t *testing.T) {
	spks := speakersLike()
	dev := ChooseDev(spks, DevFraction, DevSeed)
	if len(dev) != 13 {
		t.Fatalf("%d dev speakers, want round(0.1 × 125) = 13", len(dev))
	}
	// Largest remainder: quotas 4.68, 2.912, 2.288, 3.12 -> 4+1, 2+1, 2, 3.
	if got, want := Balance(spks, dev), "child-f 2, child-m 3, adult-f 5, adult-m 3"; got != want {
		t.Errorf("balance %q, want %q", got, want)
	}
	if again := ChooseDev(spks, DevFraction, DevSeed); !reflect.DeepEqual(again, dev) {
		t.Errorf("not deterministic: %v then %v", dev, again)
	}
	if other := ChooseDev(spks, DevFraction, 1); reflect.DeepEqual(other, dev) {
		t.Errorf("seed 1 chose the same speakers as seed %d", DevSeed)
	}
	// Within a stratum, the smallest ranks are taken.
	for _, id := range dev {
		var s Speaker
		for _, x := range spks {
			if x.ID == id {
				s = x
			}
		}
		for _, x := range spks {
			if x.Stratum() == s.Stratum() && DevRank(DevSeed, x.ID) < DevRank(DevSeed, id) && !strings.Contains(strings.Join(dev, " "), x.ID) {
				t.Errorf("%s (%s) taken over %s, which ranks before it", id, s.Stratum(), x.ID)
			}
		}
	}
	for _, tc := range []struct {
		fraction float64
		want     int
	}{{0, 0}, {0.2, 25}, {1, 125}} {
		if got := ChooseDev(spks, tc.fraction, DevSeed); len(got) != tc.want {
			t.Errorf("fraction %v: %d speakers, want %d", tc.fraction, len(got), tc.want)
		}
	}
}

// The rank is the SHA-256 that `printf '762 0001' | sha256sum` prints, so
// the list can be checked without Go.
func TestDevRank(t *testing.T) {
	if got := DevRank(762, "0001"); got != "ffee33be14a9563edf79bca06e4135b443868895ee10076f07129264f96db725" {
		t.Errorf("DevRank(762, 0001) = %s", got)
	}
}

// The committed dev_speakers.txt is what ChooseDev picks from the train
// half (needs ../shared/data/speechocean762).
func TestCommittedDevSpeakers(t *testing.T) {
	committed := DevSpeakers()
	if len(committed) != 13 {
		t.Fatalf("dev_speakers.txt lists %d speakers, want 13", len(committed))
	}
	h, err := ReadHalf(shareddata.Full(t, "data/speechocean762"), "train")
	if err != nil {
		t.Fatal(err)
	}
	spks := h.SpeakerList()
	if len(spks) != 125 {
		t.Fatalf("train half has %d speakers, want 125", len(spks))
	}
	if got := ChooseDev(spks, DevFraction, DevSeed); !reflect.DeepEqual(got, committed) {
		t.Errorf("ChooseDev gives %v, dev_speakers.txt has %v", got, committed)
	}
	if got, want := Balance(spks, committed), "child-f 2, child-m 3, adult-f 5, adult-m 3"; got != want {
		t.Errorf("balance %q, want %q", got, want)
	}
	if got, want := Balance(spks, nil), "child-f 0, child-m 0, adult-f 0, adult-m 0"; got != want {
		t.Errorf("empty balance %q", got)
	}
	var all []string
	for _, s := range spks {
		all = append(all, s.ID)
	}
	if got, want := Balance(spks, all), "child-f 22, child-m 30, adult-f 45, adult-m 28"; got != want {
		t.Errorf("train half strata %q, want %q (as doc.go says)", got, want)
	}
}
