#!/bin/sh
# Trains the web tier's baselines behind the "Web tasks" section of baselines/RESULTS.md,
# three seeds each, and writes that section (the desktop rows stay as they are).
#
#   sh baselines/train_web_results.sh [RUNS_DIR]      (from the repository root, train extra installed)
#
# As baselines/train_results.sh: one `cwgym train` command per run (recorded in its
# train.json), one torch thread, JOBS runs at a time (default 2), and the section is made
# by `python -m baselines.make_results --section web` from the run directories, with the
# published MiniWoB++ figures of baselines/miniwob_published.json beside the rows.
set -eu
RUNS=${1:-runs/web}
CWGYM=${CWGYM:-cwgym}
JOBS=${JOBS:-2}
SEEDS=${SEEDS:-0 1 2}
mkdir -p "$RUNS"

COMMON="--n-envs 8 --torch-threads 1 --eval-episodes 200 --quiet"
jobs_file="$RUNS/jobs.txt"
: > "$jobs_file"
for seed in $SEEDS; do
    # One click on the element the instruction names: PPO from scratch.
    for kind in click-test click-test-2 click-button click-link click-tab; do
        echo "--algo ppo --env cwgym/web-$kind-v0 --steps 50000 --seed $seed --out $RUNS/ppo-$kind-s$seed" >> "$jobs_file"
    done
    # Two to four steps (choose, then submit; open, then act): PPO after cloning the expert.
    for kind in click-option click-checkboxes click-button-sequence choose-list email-inbox-delete; do
        echo "--algo ppo --env cwgym/web-$kind-v0 --bc-episodes 100 --steps 100000 --seed $seed --out $RUNS/bc-ppo-$kind-s$seed" >> "$jobs_file"
    done
done
# shellcheck disable=SC2086
xargs -P "$JOBS" -L 1 sh -c "$CWGYM train $COMMON \"\$@\" > /dev/null" train < "$jobs_file"

runs=""
for name in ppo-click-test ppo-click-test-2 ppo-click-button ppo-click-link ppo-click-tab \
            bc-ppo-click-option bc-ppo-click-checkboxes bc-ppo-click-button-sequence bc-ppo-choose-list \
            bc-ppo-email-inbox-delete; do
    for seed in $SEEDS; do runs="$runs $RUNS/$name-s$seed"; done
done
# shellcheck disable=SC2086
python -m baselines.make_results $runs --section web --title "Web tasks" --published baselines/miniwob_published.json \
    --notes baselines/results-web-notes.md --out baselines/RESULTS.md
