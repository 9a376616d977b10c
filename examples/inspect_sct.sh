#!/usr/bin/env bash
# cogarch's tasks as Inspect AI evals, offline: every scripted Hangman host plays the agent's
# model (each lands in its outcome class, trial by trial as under `cogarch run
# experiments/hangman_sct_fakes.yaml`), then the example task of examples/custom_task.py.
# Needs the inspect extra (pip install -e '.[inspect]'); see docs/guides/inspect.md.
#   bash examples/inspect_sct.sh            # then: inspect view --log-dir logs/inspect_sct
# TRIALS, HOSTS and LOGS change how many trials, which hosts (none: HOSTS=) and where the
# logs go.
set -euo pipefail
cd "$(dirname "$0")/.."
TRIALS="${TRIALS:-5}"
HOSTS="${HOSTS-honest forgetful leaky denier substituter}"
LOGS="${LOGS:-logs/inspect_sct}"

for host in $HOSTS; do
    inspect eval cogarch/hangman_sct --model mockllm/model --log-dir "$LOGS" \
        -T fake="hangman.$host" -T trials="$TRIALS" -T seed=1337 \
        -T t_fork=4 -T n_candidates=5 -T letter_temperature=0.8 -T cache=false
done

# a task of your own, named by its class
inspect eval cogarch/task --model mockllm/model --log-dir "$LOGS" \
    -T task=examples/custom_task.py:GuessTask -T fake=guess.bisect \
    -T max_turns=7 -T trials="$TRIALS" -T seed=7 -T cache=false

# the same SCT on a real model (set OPENAI_API_KEY first):
#   inspect eval cogarch/hangman_sct --model openai/gpt-4.1-mini -T agent=workflow -T trials=50
echo "logs in $LOGS: inspect view --log-dir $LOGS"
