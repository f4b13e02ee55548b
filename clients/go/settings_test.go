package dipswitch

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// The cases every client's suite checks (clients/shell_words.json): DIPSWITCH_COMMAND is split alike everywhere.
func TestShellWordsAsEveryClientSplitsThem(t *testing.T) {
	raw, err := os.ReadFile("../shell_words.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases struct {
		Cases []struct {
			Line  string   `json:"line"`
			Words []string `json:"words"`
		} `json:"cases"`
		Refused []string `json:"refused"`
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases.Cases) == 0 || len(cases.Refused) == 0 {
		t.Fatal("no cases")
	}
	for _, c := range cases.Cases {
		got, err := ShellWords(c.Line)
		if err != nil || (len(got) != 0 || len(c.Words) != 0) && !reflect.DeepEqual(got, c.Words) {
			t.Errorf("%q: got %q (%v), want %q", c.Line, got, err, c.Words)
		}
	}
	for _, line := range cases.Refused {
		if got, err := ShellWords(line); err == nil {
			t.Errorf("%q: got %q, want a refusal", line, got)
		}
	}
}
