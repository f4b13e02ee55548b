package dipswitch

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Environment names each setting's environment variable: the same in every client of dipswitch.
var Environment = map[string]string{
	"URL":             "DIPSWITCH_URL",
	"AdminToken":      "DIPSWITCH_ADMIN_TOKEN",
	"Image":           "DIPSWITCH_IMAGE",
	"Command":         "DIPSWITCH_COMMAND",
	"ContainerEngine": "DIPSWITCH_CONTAINER_ENGINE",
	"FailUnder":       "DIPSWITCH_FAIL_UNDER",
	"Run":             "DIPSWITCH_RUN",
	"Fetch":           "DIPSWITCH_FETCH",
}

// Settings say where the server is and how to start one. Resolve fills each unset one from its environment
// variable; a setting given in code comes first.
type Settings struct {
	URL             string
	AdminToken      string
	Image           string
	Command         []string
	ContainerEngine string
	// FailUnder is the coverage gate, a percentage from 0 to 100; nil: no gate.
	FailUnder *float64
	Run       string
	// Fetch starts `npx dipswitch@Version` when nothing else is set (a registry fetch, so only when asked).
	Fetch bool
}

// Resolve answers the settings with each unset one read from its environment variable (an empty one is unset),
// or an error naming a setting whose value cannot be meant.
func (s Settings) Resolve() (Settings, error) {
	env := func(name string) string { return os.Getenv(Environment[name]) }
	if s.URL == "" {
		s.URL = env("URL")
	}
	if s.AdminToken == "" {
		s.AdminToken = env("AdminToken")
	}
	if s.Image == "" {
		s.Image = env("Image")
	}
	if len(s.Command) == 0 && env("Command") != "" {
		words, err := ShellWords(env("Command"))
		if err != nil {
			return s, fmt.Errorf("DIPSWITCH_COMMAND: %v", err)
		}
		s.Command = words
	}
	if s.ContainerEngine == "" {
		s.ContainerEngine = env("ContainerEngine")
	}
	if s.ContainerEngine != "" && s.ContainerEngine != "docker" && s.ContainerEngine != "podman" {
		return s, fmt.Errorf("DIPSWITCH_CONTAINER_ENGINE is docker or podman, not %q", s.ContainerEngine)
	}
	if s.FailUnder == nil && env("FailUnder") != "" {
		v, err := strconv.ParseFloat(env("FailUnder"), 64)
		if err != nil {
			return s, fmt.Errorf("DIPSWITCH_FAIL_UNDER is a percentage from 0 to 100, not %q", env("FailUnder"))
		}
		s.FailUnder = &v
	}
	if s.FailUnder != nil {
		if err := CheckGate(*s.FailUnder); err != nil {
			return s, fmt.Errorf("the coverage gate (FailUnder, DIPSWITCH_FAIL_UNDER): %w", err)
		}
	}
	if s.Run == "" {
		s.Run = env("Run")
	}
	if !s.Fetch && env("Fetch") != "" {
		switch strings.ToLower(env("Fetch")) {
		case "1", "true", "yes":
			s.Fetch = true
		case "0", "false", "no":
		default:
			return s, fmt.Errorf("DIPSWITCH_FETCH is true or false, not %q", env("Fetch"))
		}
	}
	return s, nil
}

// ShellWords splits DIPSWITCH_COMMAND into words as every client of dipswitch does (docs/clients.md), the
// way a POSIX shell splits them and Python's shlex.split does: whitespace separates words; '…' keeps
// everything in it; "…" keeps everything but \" and \\, which stand for " and \; a backslash outside
// quotes keeps the character after it. Nothing else is expanded (no variables, globs or operators).
func ShellWords(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words, inWord = append(words, word.String()), false
				word.Reset()
			}
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, fmt.Errorf("no closing quotation in %q", line)
			}
			word.WriteString(line[i+1 : i+1+end])
			i, inWord = i+1+end, true
		case c == '"':
			closed := false
			for i++; i < len(line); i++ {
				if line[i] == '"' {
					closed = true
					break
				}
				if line[i] == '\\' && i+1 < len(line) && (line[i+1] == '"' || line[i+1] == '\\') {
					i++
				}
				word.WriteByte(line[i])
			}
			if !closed {
				return nil, fmt.Errorf("no closing quotation in %q", line)
			}
			inWord = true
		case c == '\\':
			if i+1 == len(line) {
				return nil, fmt.Errorf("no escaped character in %q", line)
			}
			i++
			word.WriteByte(line[i])
			inWord = true
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
