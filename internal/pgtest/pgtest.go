// Package pgtest starts a throw-away PostgreSQL cluster for tests: initdb and pg_ctl in a
// temporary folder, listening only on a unix socket there, run as an unprivileged user when
// the tests run as root (PostgreSQL refuses root). Each test gets its own empty database.
package pgtest

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// Required, when set in the environment (as `make test` does), turns a missing PostgreSQL
// into a failure instead of a skip.
const Required = "BENCHLENS_TEST_POSTGRES"

var (
	once    sync.Once
	running *cluster
	failed  error
	seq     int
	mu      sync.Mutex
)

type cluster struct {
	dir, bin string
	runAs    []string // runuser prefix when root
	admin    *sql.DB
}

// Main runs a package's tests and stops the cluster if one was started.
func Main(m *testing.M) {
	code := m.Run()
	if running != nil {
		running.stop()
	}
	os.Exit(code)
}

// NewDatabase returns the URL of a new, empty database in the cluster, starting the cluster
// on first use. A cluster that cannot start (PostgreSQL not installed) skips the test, saying
// why, or fails it under Required.
func NewDatabase(t testing.TB) string {
	t.Helper()
	once.Do(func() { running, failed = start() })
	if failed != nil {
		if os.Getenv(Required) != "" {
			t.Fatalf("PostgreSQL engine: %v", failed)
		}
		t.Skipf("PostgreSQL engine not tested: %v", failed)
	}
	mu.Lock()
	seq++
	name := fmt.Sprintf("t%d", seq)
	mu.Unlock()
	if _, err := running.admin.Exec(`CREATE DATABASE ` + name); err != nil {
		t.Fatalf("PostgreSQL: %v", err)
	}
	return running.url(name)
}

func (c *cluster) url(db string) string {
	return "postgres:///" + db + "?host=" + c.dir + "&user=benchlens&sslmode=disable"
}

// binDir finds initdb: Debian keeps it under /usr/lib/postgresql/N/bin, off the PATH.
func binDir() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	slices.SortFunc(found, func(a, b string) int { return version(a) - version(b) })
	if len(found) > 0 {
		return filepath.Dir(found[len(found)-1]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", fmt.Errorf("initdb not found (install PostgreSQL: Debian `apt-get install postgresql`; `make test` does)")
}

func version(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

func start() (*cluster, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	// As root the server runs as nobody, who must reach the folder: $TMPDIR may be private.
	parent := ""
	if os.Geteuid() == 0 {
		parent = "/tmp"
	}
	server, err := serverUser()
	if err != nil {
		return nil, err
	}
	var runAs []string
	if server != nil {
		runAs = []string{"runuser", "-u", server.Username, "--"}
	}
	sweep(parent, bin, runAs)
	dir, err := os.MkdirTemp(parent, "benchlens-pg-")
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir, bin: bin, runAs: runAs}
	// The owner file lets a later run stop this cluster if these tests are killed.
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if server != nil {
		uid, _ := strconv.Atoi(server.Uid)
		gid, _ := strconv.Atoi(server.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if err := c.run("initdb", "-D", data, "-U", "benchlens", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := c.startServer(); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		os.RemoveAll(dir)
		return nil, fmt.Errorf("%v\n%s", err, log)
	}
	if c.admin, err = sql.Open("pgx", c.url("postgres")); err == nil {
		err = c.admin.Ping()
	}
	if err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

// serverUser is who runs the server: nobody when the tests run as root (PostgreSQL refuses
// root), else the tests' own user (nil).
func serverUser() (*user.User, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("nobody")
	if err != nil {
		return nil, fmt.Errorf("running as root and no unprivileged user 'nobody' to run PostgreSQL: %v", err)
	}
	return u, nil
}

// sweep stops and removes the clusters of earlier test runs that were killed before they
// could (their owner process is gone).
func sweep(parent, bin string, runAs []string) {
	dirs, _ := filepath.Glob(filepath.Join(cmp.Or(parent, os.TempDir()), "benchlens-pg-*"))
	for _, dir := range dirs {
		b, err := os.ReadFile(filepath.Join(dir, "owner"))
		pid, _ := strconv.Atoi(string(b))
		if err != nil || pid <= 0 || !gone(pid) {
			continue
		}
		(&cluster{dir: dir, bin: bin, runAs: runAs}).stop()
	}
}

// gone reports whether a process has ended (signal 0 tests without sending; a process of
// another user is not gone).
func gone(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && errors.Is(p.Signal(syscall.Signal(0)), os.ErrProcessDone)
}

func (c *cluster) run(tool string, args ...string) error {
	argv := append(append(slices.Clone(c.runAs), filepath.Join(c.bin, tool)), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = c.dir // the tests' folder may be closed to the server's user
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v: %s", tool, err, strings.TrimSpace(string(out)))
	}
	return nil
}

// startServer starts the cluster's server, listening only on its unix socket.
func (c *cluster) startServer() error {
	opts := "-c listen_addresses= -c unix_socket_directories=" + c.dir +
		" -c fsync=off -c full_page_writes=off -c synchronous_commit=off -c max_connections=200"
	return c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-o", opts, "-l", filepath.Join(c.dir, "log"), "-w", "-t", "120", "start")
}

func (c *cluster) stop() {
	if c.admin != nil {
		c.admin.Close()
	}
	c.run("pg_ctl", "-D", filepath.Join(c.dir, "data"), "-m", "immediate", "-w", "stop")
	os.RemoveAll(c.dir)
}
