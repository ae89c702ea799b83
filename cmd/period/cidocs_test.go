package main

import (
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The recipes of docs/parallel.md: the Kubernetes Indexed Job (JSON, which
// is YAML too) and the GitHub Actions matrix run the period commands they
// show with flags period accepts, one shard per index.

func TestKubernetesIndexedJobRecipe(t *testing.T) {
	type job struct {
		Kind string
		Spec struct {
			CompletionMode string
			Completions    int
			Parallelism    int
			Template       struct {
				Spec struct {
					Containers []struct{ Command []string }
				}
			}
		}
	}
	read := func(file string) job {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var j job
		if err := json.Unmarshal(data, &j); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 {
			t.Fatalf("%s: not a Job with one container: %+v", file, j)
		}
		return j
	}
	shards := read("../../docs/ci/k8s-period-shards.json")
	cmd := strings.Join(shards.Spec.Template.Spec.Containers[0].Command, " ")
	m := regexp.MustCompile(`period (test .*) -shard \$\(\(JOB_COMPLETION_INDEX \+ 1\)\)/(\d+) (.*) \./\.\.\. >`).FindStringSubmatch(cmd)
	if m == nil {
		t.Fatalf("shard job command %q does not map JOB_COMPLETION_INDEX to -shard", cmd)
	}
	n := atoi(t, m[2])
	if shards.Spec.CompletionMode != "Indexed" || shards.Spec.Completions != n || shards.Spec.Parallelism != n {
		t.Errorf("shard job: %+v, want Indexed, %d completions", shards.Spec, n)
	}
	for i := 0; i < n; i++ {
		args := strings.Fields(m[1] + " -shard " + itoa(i+1) + "/" + m[2] + " " + strings.ReplaceAll(m[3], "$JOB_COMPLETION_INDEX", itoa(i)))
		if code := run(append(args, "-h"), io.Discard, io.Discard); code != exitOK {
			t.Errorf("period %v: flags rejected", args)
		}
		if _, err := newParallelism(1, itoa(i+1)+"/"+m[2]); err != nil {
			t.Error(err)
		}
	}
	merge := strings.Join(read("../../docs/ci/k8s-period-merge.json").Spec.Template.Spec.Containers[0].Command, " ")
	for i := 0; i < n; i++ {
		if !strings.Contains(merge, "/results/shard-"+itoa(i)) {
			t.Errorf("merge job %q does not read shard %d", merge, i)
		}
	}
}

func TestGitHubActionsMatrixRecipe(t *testing.T) {
	data, err := os.ReadFile("../../docs/ci/github-actions-shards.yml")
	if err != nil {
		t.Fatal(err)
	}
	wf := string(data)
	flags := regexp.MustCompile(`(?m)^  FLAGS: (.*)$`).FindStringSubmatch(wf)
	matrix := regexp.MustCompile(`(?m)^        shard: \[([0-9, ]+)\]$`).FindStringSubmatch(wf)
	test := regexp.MustCompile(`period (test .*) -shard \$\{\{ matrix\.shard \}\}/(\d+) (-o .*?) \$PACKAGES`).FindStringSubmatch(wf)
	merge := regexp.MustCompile(`period (merge .*)$`).FindStringSubmatch(firstLineWith(wf, "run: period merge"))
	if flags == nil || matrix == nil || test == nil || merge == nil {
		t.Fatalf("workflow: FLAGS %v, matrix %v, test %v, merge %v", flags, matrix, test, merge)
	}
	shards := strings.Split(strings.ReplaceAll(matrix[1], " ", ""), ",")
	if len(shards) != atoi(t, test[2]) {
		t.Errorf("matrix %v against -shard .../%s", shards, test[2])
	}
	for _, i := range shards {
		args := strings.Fields(strings.ReplaceAll(test[1], "$FLAGS", flags[1]) + " -shard " + i + "/" + test[2] + " " + strings.ReplaceAll(test[3], "${{ matrix.shard }}", i))
		if code := run(append(args, "-h"), io.Discard, io.Discard); code != exitOK {
			t.Errorf("period %v: flags rejected", args)
		}
		if !strings.Contains(merge[1], "results/period-shard-"+i) {
			t.Errorf("merge %q does not read shard %s", merge[1], i)
		}
	}
	if code := run(append(strings.Fields(merge[1])[:3], "-h"), io.Discard, io.Discard); code != exitOK {
		t.Errorf("period %s: flags rejected", merge[1])
	}
}

func firstLineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}

func atoi(t *testing.T, s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		n = 10*n + int(c-'0')
	}
	return n
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + itoa(i%10)
}
