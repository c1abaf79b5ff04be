#!/bin/sh
# Trains the masked attention agent behind the "Masked attention agent" sections of
# baselines/RESULTS.md — every easy task and nineteen web kinds, one recipe — and writes them.
#
#   sh baselines/train_masked_results.sh [RUNS_DIR]      (from the repository root, train extra installed)
#
# The recipe: sb3-contrib's MaskablePPO on the env's action masks, the element-attention
# policy (cwgym.rl.attention), the three observation keys that say what typing changed,
# and a start from 100 demonstrations of a `cwgym dataset` (training seeds 0-99; the actor
# and the critic cloned) before 30,000 steps of reinforcement learning; the window drag also
# observes `pointer_held` (a press on a title bar shows nothing on the screen), and the four
# tasks whose steps move only a caret (append-line, delete-line, terminal-mkdir, terminal-copy)
# observe `caret` (written to masked-caret-easy-<task>-s<seed>). Each run is one
# `cwgym train` command (recorded in its train.json) with one torch thread; JOBS runs
# (default 2, one per core) train at a time. SEEDS (default "0") are the training seeds.
# Set CWGYM to another command (e.g. "python -m cwgym.cli") to use a source checkout.
set -eu
RUNS=${1:-runs/masked}
CWGYM=${CWGYM:-cwgym}
JOBS=${JOBS:-2}
SEEDS=${SEEDS:-0}
EASY="open-app close-window maximize-window drag-window open-desktop-file new-folder rename-file trash-file
      scroll-trash editor-save append-line terminal-mkdir terminal-copy copy-paste move-file new-file
      save-as-copy restore-trash delete-line"
WEB="click-test click-button click-link click-tab click-tab-2 click-option click-dialog click-widget
     click-collapsible focus-text enter-text login-user click-checkboxes email-inbox-delete
     click-test-2 click-dialog-2 focus-text-2 choose-list enter-password"
mkdir -p "$RUNS"

# The demonstrations: the expert's episodes on the first 100 training seeds, checked.
# shellcheck disable=SC2046
$CWGYM dataset --out "$RUNS/demos-easy" --episodes 100 --no-progress \
    --procedures $(for t in $EASY; do printf 'easy-%s ' "$t"; done)
# shellcheck disable=SC2046
$CWGYM dataset --out "$RUNS/demos-web" --episodes 100 --size 160x210 --no-progress \
    --procedures $(for k in $WEB; do printf 'web-%s ' "$k"; done)

AGENT="--algo maskable-ppo --policy attention --obs elements instruction instruction_shown focus_tokens element_values"
COMMON="--n-envs 8 --torch-threads 1 --eval-episodes 200 --quiet --steps 30000 --demo-episodes 100 --bc-epochs 100"
CARET="append-line delete-line terminal-mkdir terminal-copy"
# extra TASK: the observation keys an easy task adds to the recipe's.
extra() {
    case " $CARET " in *" $1 "*) printf ' caret'; return ;; esac
    if [ "$1" = drag-window ]; then printf ' pointer_held'; fi
}
# run TASK SEED: the run directory's name.
run() {
    case " $CARET " in *" $1 "*) printf 'masked-caret-easy-%s-s%s' "$1" "$2"; return ;; esac
    printf 'masked-easy-%s-s%s' "$1" "$2"
}
jobs_file="$RUNS/jobs.txt"
: > "$jobs_file"
for seed in $SEEDS; do
    for task in $EASY; do
        echo "$AGENT$(extra "$task") --env cwgym/easy-$task-v1 --demos $RUNS/demos-easy --seed $seed --out $RUNS/$(run "$task" "$seed")" >> "$jobs_file"
    done
    for kind in $WEB; do
        echo "$AGENT --env cwgym/web-$kind-v0 --demos $RUNS/demos-web --seed $seed --out $RUNS/masked-web-$kind-s$seed" >> "$jobs_file"
    done
done
# shellcheck disable=SC2086
xargs -P "$JOBS" -L 1 sh -c "$CWGYM train $COMMON \"\$@\" > \"\$(echo \"\$@\" | sed 's/.*--out //').log\" 2>&1" train < "$jobs_file"

easy="" web=""
for seed in $SEEDS; do
    for task in $EASY; do easy="$easy $RUNS/$(run "$task" "$seed")"; done
    for kind in $WEB; do web="$web $RUNS/masked-web-$kind-s$seed"; done
done
# shellcheck disable=SC2086
python -m baselines.make_results $easy --section masked-easy --title "Masked attention agent: the easy tier" \
    --notes baselines/results-masked-notes.md --out baselines/RESULTS.md
# shellcheck disable=SC2086
python -m baselines.make_results $web --section masked-web --title "Masked attention agent: web tasks" \
    --published baselines/miniwob_published.json --out baselines/RESULTS.md
