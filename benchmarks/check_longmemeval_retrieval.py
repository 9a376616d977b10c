"""Recompute every retrieval metric of a LongMemEval run from its trial files and the data
file, with LongMemEval's official definitions written out here afresh, and report whether the
run's numbers agree on every question.

Nothing of cogarch is imported: the data file and the trial files are read as plain JSON, the
corpus is built as ``process_item_flat_index`` of ``src/retrieval/run_retrieval.py`` builds it,
rankings become positions in that corpus, and the scores are those of ``eval_utils.py``
(``evaluate_retrieval`` and ``evaluate_retrieval_turn2session``). Questions the official means
leave out (abstention, no user turn marked ``has_answer``) must carry no metrics.

Two readings that the official code has no case for follow the run's documented rules:
a memory ranking only its top entries gets a number only at the cut-offs its ranked ids decide,
and a file whose session ids never contain ``answer`` takes its answer sessions from
``answer_session_ids``, renamed with a ``noans_`` prefix.

    python benchmarks/check_longmemeval_retrieval.py RESULTS_DIR [--data FILE]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

CUTOFFS = (1, 3, 5, 10, 30, 50)


def strip_turn(doc_id: str) -> str:
    return "_".join(doc_id.split("_")[:-1])


def dcg(rels: list[float], k: int) -> float:
    rels = rels[:k]
    if not rels:
        return 0.0
    return rels[0] + sum(rels[i] / math.log2(i + 1) for i in range(1, len(rels)))


def evaluate(
    rankings: list[int], correct: list[str], corpus_ids: list[str], k: int
) -> tuple[float, float, float]:
    got = {corpus_ids[i] for i in rankings[:k]}
    recall_any = float(any(c in got for c in correct))
    recall_all = float(all(c in got for c in correct))
    rels = [1.0 if c in correct else 0.0 for c in corpus_ids]
    ideal = dcg(sorted(rels, reverse=True), k)
    actual = dcg([rels[i] for i in rankings[:k]], k)
    return recall_any, recall_all, (actual / ideal if ideal else 0.0)


def turn2session_k(rankings: list[int], corpus_ids: list[str], k: int) -> int:
    stripped = [strip_turn(c) for c in corpus_ids]
    eff = k
    while eff <= len(stripped) and len({stripped[i] for i in rankings[:eff]}) < k:
        eff += 1
    return eff


def evaluate_turn2session(
    rankings: list[int], correct: list[str], corpus_ids: list[str], k: int
) -> tuple[float, float, float]:
    wanted = list({strip_turn(c) for c in correct})
    stripped = [strip_turn(c) for c in corpus_ids]
    return evaluate(rankings, wanted, stripped, turn2session_k(rankings, corpus_ids, k))


def build_corpus(entry: dict[str, Any], granularity: str) -> tuple[list[str], list[str]]:
    """(official corpus ids, the haystack id each stands for) at one granularity."""
    sessions = list(zip(entry["haystack_session_ids"], entry["haystack_sessions"], strict=True))
    marked = any("answer" in sid for sid, _ in sessions)
    listed = set(entry["answer_session_ids"])

    def is_answer(sid: str) -> bool:
        return "answer" in sid if marked else sid in listed

    def noans(name: str) -> str:
        return name.replace("answer", "noans") if marked else "noans_" + name

    ids, ours = [], []
    for sid, turns in sessions:
        users = [t for t in turns if t["role"] == "user"]
        if granularity == "session":
            name = sid
            if is_answer(sid) and all(not t.get("has_answer", False) for t in users):
                name = noans(sid)
            ids.append(name)
            ours.append(sid)
            continue
        for i, t in enumerate(turns):
            if t["role"] != "user":
                continue
            name = f"{sid}_{i + 1}"
            if is_answer(sid) and not t.get("has_answer", False):
                name = noans(name)
            ids.append(name)
            ours.append(f"{sid}_{i + 1}")
    return ids, ours


def correct_of(corpus_ids: list[str], ours: list[str], entry: dict[str, Any]) -> list[str]:
    """The official correct ids: those containing "answer"; in a file without the marker,
    those of listed sessions that kept their name."""
    if any("answer" in sid for sid in entry["haystack_session_ids"]):
        return sorted({c for c in corpus_ids if "answer" in c})
    listed = set(entry["answer_session_ids"])
    return sorted(
        {
            c
            for c, o in zip(corpus_ids, ours, strict=True)
            if c == o and (o in listed or strip_turn(o) in listed)
        }
    )


def left_out(entry: dict[str, Any]) -> bool:
    if "_abs" in entry["question_id"]:
        return True
    users = [t for s in entry["haystack_sessions"] for t in s if t["role"] == "user"]
    return not any(t.get("has_answer", False) for t in users)


def expected_metrics(
    entry: dict[str, Any], ranking: list[list[str]], complete: bool
) -> dict[str, dict[str, float]]:
    """The official metrics of one answer's ranking (source ids per entry, best first)."""
    entries = [e for e in ranking if e]
    out: dict[str, dict[str, float]] = {"session": {}}
    if all(len(e) == 1 for e in entries):
        corpus_ids, ours = build_corpus(entry, "turn")
        position = {o: i for i, o in enumerate(ours)}
        rankings = list(dict.fromkeys(position[e[0]] for e in entries if e[0] in position))
        correct = correct_of(corpus_ids, ours, entry)
        out["turn"] = {}
        for k in CUTOFFS:
            if complete or k <= len(rankings):
                put(out["turn"], k, evaluate(rankings, correct, corpus_ids, k))
            if complete or turn2session_k(rankings, corpus_ids, k) <= len(rankings):
                put(out["session"], k, evaluate_turn2session(rankings, correct, corpus_ids, k))
        return out
    corpus_ids, ours = build_corpus(entry, "session")
    position = {o: i for i, o in enumerate(ours)}
    sessions = dict.fromkeys(strip_turn(t) for e in entries for t in e)
    rankings = [position[s] for s in sessions if s in position]
    correct = correct_of(corpus_ids, ours, entry)
    for k in CUTOFFS:
        if complete or k <= len(rankings):
            put(out["session"], k, evaluate(rankings, correct, corpus_ids, k))
    return out


def put(into: dict[str, float], k: int, scores: tuple[float, float, float]) -> None:
    for name, value in zip(("recall_any", "recall_all", "ndcg_any"), scores, strict=True):
        into[f"{name}@{k}"] = value


def differences(mine: dict[str, dict[str, float]], theirs: dict[str, Any] | None) -> list[str]:
    theirs = theirs or {}
    out = []
    for level in sorted(set(mine) | set(theirs)):
        a, b = mine.get(level, {}), theirs.get(level, {})
        for key in sorted(set(a) | set(b)):
            if key not in a or key not in b or abs(a[key] - b[key]) > 1e-6:
                out.append(f"{level} {key}: official {a.get(key)} run {b.get(key)}")
    return out


def played(entry: dict[str, Any], haystack: str) -> dict[str, Any]:
    if haystack != "oracle":
        return entry
    keep = [
        i for i, s in enumerate(entry["haystack_session_ids"]) if s in entry["answer_session_ids"]
    ]
    out = dict(entry)
    for key in ("haystack_session_ids", "haystack_dates", "haystack_sessions"):
        out[key] = [entry[key][i] for i in keep]
    return out


def read_data(path: Path) -> dict[str, dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except ValueError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    return {e["question_id"]: e for e in data}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a LongMemEval run's results folder")
    parser.add_argument("--data", type=Path, help="the data file (default: the run's config)")
    args = parser.parse_args()
    trials = sorted(args.results.glob("*/trial_*.json"))
    records = [json.loads(p.read_text(encoding="utf-8")) for p in trials]
    records = [r for r in records if r.get("task") == "longmemeval" and r.get("payload")]
    if not records:
        print(f"no LongMemEval trial files under {args.results}", file=sys.stderr)
        return 2
    data_path = args.data or Path(records[0]["metadata"]["config"]["task"]["data"])
    data = read_data(data_path)
    per_agent: dict[str, dict[str, int]] = {}
    means: dict[str, dict[str, list[float]]] = {}
    problems: list[str] = []
    for record in records:
        payload = record["payload"]
        count = per_agent.setdefault(
            record["agent"], {"checked": 0, "agree": 0, "left out": 0, "no ranking": 0}
        )
        ranking = payload.get("ranking") or payload.get("ranked")
        if ranking is None:
            count["no ranking"] += 1
            continue
        entry = played(data[payload["question_id"]], payload.get("haystack", "full"))
        count["checked"] += 1
        where = f"{record['agent']} trial {record['trial']} ({payload['question_id']})"
        if left_out(entry):
            count["left out"] += 1
            if payload.get("retrieval") is None:
                count["agree"] += 1
            else:
                problems.append(f"{where}: left out officially, yet the run scores it")
            continue
        complete = payload.get("ranking") is not None and bool(payload.get("ranking_complete"))
        mine = expected_metrics(entry, ranking, complete)
        found = differences(mine, payload.get("retrieval"))
        found += differences(mine, record["evaluation"].get("retrieval"))
        if found:
            problems += [f"{where}: {d}" for d in found]
        else:
            count["agree"] += 1
        for level, scores in mine.items():
            for key, value in scores.items():
                means.setdefault(record["agent"], {}).setdefault(f"{level} {key}", []).append(value)
    print(f"{data_path}: {len(records)} trial files")
    print("agent | questions checked | agree | left out of the means | no ranking")
    for agent, c in per_agent.items():
        print(f"{agent} | {c['checked']} | {c['agree']} | {c['left out']} | {c['no ranking']}")
    for agent, table in means.items():
        shown = ", ".join(
            f"{name} {sum(v) / len(v):.3f}"
            for name, v in table.items()
            if name in ("session recall_any@5", "session ndcg_any@3", "turn ndcg_any@10")
        )
        print(f"{agent}: official means (questions with the metric): {shown}")
    for problem in problems:
        print("DISAGREES", problem)
    print("agreement on every question" if not problems else f"{len(problems)} disagreements")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
