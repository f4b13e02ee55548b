package dipswitch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server is a server this process started (or reached at Settings.URL), and a client with its authority.
type Server struct {
	*Client
	// How says how it was had: "url", "image", "command" or "fetch".
	How  string
	stop func() error
	// a command's standard input: the server ends once it is closed (this process gone, or Stop)
	stdin io.Closer
}

// Stop ends a server this process started (SIGTERM: its pending writes finish; a container removed).
func (s *Server) Stop() error {
	if s.stop == nil {
		return nil
	}
	stop := s.stop
	s.stop = nil
	return stop()
}

// LaunchError is a server that could not be started, with what its launcher said last.
type LaunchError struct{ Message string }

func (e *LaunchError) Error() string { return e.Message }

func lastLines(text string, n int) string {
	var kept []string
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, "  "+l)
		}
	}
	if len(kept) > n {
		kept = kept[len(kept)-n:]
	}
	if len(kept) == 0 {
		return "  (it said nothing)"
	}
	return strings.Join(kept, "\n")
}

// ContainerEngine answers the engine that runs images: the one named, else the first of docker and podman
// that answers `ENGINE info` (a docker command with no daemon behind it does not count); "" for none.
func ContainerEngine(named string) (string, error) {
	candidates := []string{"docker", "podman"}
	if named != "" {
		candidates = []string{named}
	}
	for _, engine := range candidates {
		if _, err := exec.LookPath(engine); err != nil {
			if named != "" {
				return "", &LaunchError{fmt.Sprintf("DIPSWITCH_CONTAINER_ENGINE is %s, but there is no %s command", engine, engine)}
			}
			continue
		}
		out, err := exec.Command(engine, "info").CombinedOutput()
		if err == nil {
			return engine, nil
		}
		if named != "" {
			return "", &LaunchError{fmt.Sprintf("%s does not answer (`%s info`):\n%s", engine, engine, lastLines(string(out), 15))}
		}
	}
	return "", nil
}

// LocalCommand answers dipswitch installed in the project (node_modules/.bin/dipswitch here or in a folder above).
func LocalCommand() []string {
	dir, err := os.Getwd()
	if err != nil {
		return nil
	}
	for {
		bin := filepath.Join(dir, "node_modules", ".bin", "dipswitch")
		if _, err := os.Stat(bin); err == nil {
			return []string{bin, "--memory", "--port", "0"}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		dir = parent
	}
}

// NoServer is the one line said when no setting names a server to reach or start.
var NoServer = "dipswitch: no server to reach or start: set DIPSWITCH_URL (a running server), DIPSWITCH_IMAGE (an image), " +
	"DIPSWITCH_COMMAND (a command), install it in the project (npm install --save-dev dipswitch@" + Version + "), " +
	"or DIPSWITCH_FETCH=true (npx dipswitch@" + Version + ")"

// Start answers a server from the first the settings (resolved) give: a URL, an image, a command, the project's
// dipswitch (node_modules/.bin), a fetch of this client's version (only with Fetch). A started server ends when
// this process does, however it ends; Stop ends it sooner.
func Start(ctx context.Context, given Settings) (*Server, error) {
	s, err := given.Resolve()
	if err != nil {
		return nil, err
	}
	if s.URL != "" && given.Image == "" && len(given.Command) == 0 {
		c := Connect(s.URL, Options{AdminToken: s.AdminToken})
		c.Run = s.Run
		return &Server{Client: c, How: "url"}, nil
	}
	var server *Server
	if s.Image != "" {
		engine, err := ContainerEngine(s.ContainerEngine)
		if err != nil {
			return nil, err
		}
		if engine == "" {
			return nil, &LaunchError{fmt.Sprintf("dipswitch: DIPSWITCH_IMAGE is %s, but neither docker nor podman answers (`docker info`, `podman info`); name one with DIPSWITCH_CONTAINER_ENGINE", s.Image)}
		}
		token := s.AdminToken
		if token == "" {
			b := make([]byte, 16)
			_, _ = rand.Read(b)
			token = hex.EncodeToString(b)
		}
		server, err = startContainer(ctx, engine, s.Image, token)
		if err != nil {
			return nil, err
		}
	} else {
		argv, how := s.Command, "command"
		if len(argv) == 0 {
			argv = LocalCommand()
		}
		if len(argv) == 0 && s.Fetch {
			argv, how = []string{"npx", "--yes", "dipswitch@" + Version, "--memory", "--port", "0"}, "fetch"
		}
		if len(argv) == 0 {
			return nil, &LaunchError{NoServer}
		}
		server, err = startCommand(ctx, argv, s.AdminToken, how)
		if err != nil {
			return nil, err
		}
	}
	server.Client.Run = s.Run
	return server, nil
}

// output keeps what a launcher said, for its error.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// startCommand runs the server with the launch contract's flags (docs/clients.md): it writes where it serves
// to its ready file, and stops once its standard input, a pipe this process holds, closes: when this process
// ends, however it ends. Its output is kept for a launch that fails.
func startCommand(ctx context.Context, argv []string, token, how string) (*Server, error) {
	dir, err := os.MkdirTemp("", "dipswitch-server-")
	if err != nil {
		return nil, err
	}
	ready := filepath.Join(dir, "ready.json")
	cmd := exec.Command(argv[0], append(append([]string{}, argv[1:]...), "--ready-file", ready, "--exit-with-stdin")...)
	if token != "" {
		cmd.Env = append(os.Environ(), "SIM_ADMIN_TOKEN="+token)
	}
	said := &output{}
	cmd.Stdout, cmd.Stderr = said, said
	// held open for as long as the server is to live: the system closes it when this process ends
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, &LaunchError{fmt.Sprintf("dipswitch did not start (%s): %v", strings.Join(argv, " "), err)}
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	fail := func(why string) error {
		_ = cmd.Process.Kill()
		<-exited
		os.RemoveAll(dir)
		return &LaunchError{fmt.Sprintf("dipswitch did not start (%s: %s); it said:\n%s", strings.Join(argv, " "), why, lastLines(said.String(), 15))}
	}
	ticker := time.NewTicker(20 * time.Millisecond)
	defer ticker.Stop()
	deadline := time.After(90 * time.Second)
	for {
		if raw, err := os.ReadFile(ready); err == nil {
			var told ReadyFile
			if err := json.Unmarshal(raw, &told); err != nil {
				return nil, fail("its ready file is not JSON: " + err.Error())
			}
			stop := func() error {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-exited:
				case <-time.After(15 * time.Second):
					_ = cmd.Process.Kill()
				}
				_ = stdin.Close()
				return os.RemoveAll(dir)
			}
			return &Server{Client: Connect(told.URL, Options{AdminToken: token}), How: how, stop: stop, stdin: stdin}, nil
		}
		select {
		case err := <-exited:
			os.RemoveAll(dir)
			return nil, &LaunchError{fmt.Sprintf("dipswitch did not start (%s: %v); it said:\n%s", strings.Join(argv, " "), err, lastLines(said.String(), 15))}
		case <-deadline:
			return nil, fail("it did not serve within 90s")
		case <-ctx.Done():
			_ = fail(ctx.Err().Error())
			return nil, ctx.Err()
		case <-ticker.C:
		}
	}
}

func startContainer(ctx context.Context, engine, image, token string) (*Server, error) {
	owner := strconv.Itoa(os.Getpid())
	// the container reaches receivers on this machine's loopback: podman's slirp4netns maps 10.0.2.2 to it;
	// docker reaches the host as host.docker.internal (a receiver there listens beyond 127.0.0.1)
	network, receiverHost := []string{"--network", "slirp4netns:allow_host_loopback=true"}, "10.0.2.2"
	if engine == "docker" {
		network, receiverHost = []string{"--add-host", "host.docker.internal:host-gateway"}, "host.docker.internal"
	}
	args := append([]string{"run", "-d", "--label", "dipswitch.owner=" + owner}, network...)
	args = append(args, "-p", "127.0.0.1::4010", "-e", "SIM_ADMIN_TOKEN="+token, image)
	out, err := exec.CommandContext(ctx, engine, args...).CombinedOutput()
	if err != nil {
		return nil, &LaunchError{fmt.Sprintf("dipswitch's image did not start (%s run … %s: %v); %s said:\n%s", engine, image, err, engine, lastLines(string(out), 15))}
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	id := strings.TrimSpace(lines[len(lines)-1])
	remove := func() error { return exec.Command(engine, "rm", "-f", id).Run() }
	// the reaper: a process of its own session that removes the container once this process is gone, however it ends
	reaper := exec.Command("sh", "-c", `while kill -0 "$1" 2>/dev/null; do sleep 0.5; done; "$2" rm -f "$3" >/dev/null 2>&1`,
		"dipswitch-reaper", owner, engine, id)
	reaper.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := reaper.Start(); err != nil {
		_ = remove()
		return nil, err
	}
	go func() { _ = reaper.Wait() }()
	port, _ := exec.Command(engine, "port", id, "4010/tcp").Output()
	fields := strings.Split(strings.TrimSpace(strings.Split(string(port), "\n")[0]), ":")
	base := "http://127.0.0.1:" + fields[len(fields)-1]
	deadline := time.Now().Add(90 * time.Second)
	for {
		if len(port) > 0 {
			res, err := http.Get(base + "/__sim/health")
			if err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					c := Connect(base, Options{AdminToken: token})
					c.ReceiverHost = receiverHost
					return &Server{Client: c, How: "image", stop: remove}, nil
				}
			}
		}
		if len(port) == 0 || time.Now().After(deadline) {
			logs, _ := exec.Command(engine, "logs", id).CombinedOutput()
			_ = remove()
			return nil, &LaunchError{fmt.Sprintf("dipswitch's image %s did not answer; it said:\n%s", image, lastLines(string(logs), 15))}
		}
		select {
		case <-ctx.Done():
			_ = remove()
			return nil, ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}
