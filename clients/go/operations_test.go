package dipswitch

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"sort"
	"strings"
	"testing"
)

// usedOperations answers the operations the client's own code calls: every Op value named in a file that is
// not generated, read with Go's parser.
func usedOperations(t *testing.T) map[string]bool {
	t.Helper()
	ids := map[string]string{}
	for _, op := range ContractOperations {
		ids["Op"+strings.ToUpper(op.ID[:1])+op.ID[1:]] = op.ID
	}
	files := token.NewFileSet()
	packages, err := parser.ParseDir(files, ".", func(f os.FileInfo) bool {
		return !strings.HasSuffix(f.Name(), "_test.go") && f.Name() != "generated.go"
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, p := range packages {
		ast.Inspect(p, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if op, known := ids[id.Name]; known {
					used[op] = true
				}
			}
			return true
		})
	}
	return used
}

// Every operation of the contract is called by a method of the client, or omitted with a reason (the
// contract's `x-client: { omit }`, generated into Omitted); `go test -run TestEveryOperation -v` prints the
// operations used.
func TestEveryOperationHasAMethodOrAReason(t *testing.T) {
	used := usedOperations(t)
	var names []string
	for id := range used {
		names = append(names, id)
	}
	sort.Strings(names)
	said, _ := json.Marshal(names)
	t.Logf("operations used: %s", said)
	if len(Omitted) == 0 {
		t.Fatal("no omissions read")
	}
	for _, op := range ContractOperations {
		if !used[op.ID] && Omitted[op.ID] == "" {
			t.Errorf("%s has no method and no reason (x-client: { omit } in contract/sim.yaml)", op.ID)
		}
	}
}
