"""Numbers and dates in an answer: where they are, how to write them in words, how to move
them. Everything here is pure text work, the same for the same input."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from cogarch.words import SMALL_NUMBERS, TENS

_SMALL = SMALL_NUMBERS
_TENS = TENS
WORD_VALUES: dict[str, int] = {w: i for i, w in enumerate(_SMALL)} | {
    w: 20 + 10 * i for i, w in enumerate(_TENS)
}
NUMBER_WORD = re.compile(
    r"\b(?:(?:"
    + "|".join(_TENS)
    + r")(?:[- ](?:"
    + "|".join(_SMALL[1:10])
    + r"))?|"
    + "|".join(sorted(_SMALL, key=len, reverse=True))
    + r")\b",
    re.I,
)
NUMBER = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\w])(?!\.\d)(?!,\d{3})")

MONTHS = list(calendar.month_name)[1:]
_SHORT = {m[:3].lower(): i + 1 for i, m in enumerate(MONTHS)}
_MONTH = (
    r"(?P<month>" + "|".join(MONTHS) + r"|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec)\.?)"
)
_DAY = r"(?P<day>\d{1,2})(?P<suffix>st|nd|rd|th)?"
_YEAR = r"(?P<year>\d{4})"
WEEKDAYS = list(calendar.day_name)
WEEKDAY = re.compile(r"\b(" + "|".join(WEEKDAYS) + r")\b", re.I)
_DATES = [
    re.compile(
        r"\b(?P<year>\d{4})(?P<sep>[/-])(?P<month>\d{1,2})(?P=sep)(?P<day>\d{1,2})\b"
        r"(?: \((?P<wd>Mon|Tue|Wed|Thu|Fri|Sat|Sun)\))?"
    ),
    re.compile(rf"\b{_DAY} (?:of )?{_MONTH},? {_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH} {_DAY},? {_YEAR}\b", re.I),
    re.compile(rf"\b{_MONTH} {_DAY}\b(?!:)", re.I),
    re.compile(rf"\b{_DAY} (?:of )?{_MONTH}\b", re.I),
    re.compile(rf"\b{_MONTH},? {_YEAR}\b", re.I),
]
DATE_SHIFT = timedelta(days=7)
"""How far a wrong date is moved: a week, so that phrases around a date ("the Sunday before
25 May 2023") change too; a date with only a month and year moves by a month."""
_LEAP = 2024
"""The year a date without one is read in (a leap year, so 29 February reads)."""


@dataclass(frozen=True)
class Found:
    start: int
    end: int
    text: str


def number_to_words(n: int) -> str:
    """``n`` (0 to 999,999) in English words: 21 -> "twenty-one", 305 -> "three hundred five"."""
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, rest = divmod(n, 10)
        return _TENS[tens - 2] + (f"-{_SMALL[rest]}" if rest else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_SMALL[hundreds]} hundred" + (f" {number_to_words(rest)}" if rest else "")
    thousands, rest = divmod(n, 1000)
    return f"{number_to_words(thousands)} thousand" + (f" {number_to_words(rest)}" if rest else "")


def word_value(text: str) -> int:
    """The value of a number word matched by :data:`NUMBER_WORD` ("twenty-one" -> 21)."""
    parts = re.split(r"[- ]", text.lower())
    return sum(WORD_VALUES[p] for p in parts)


def date_spans(text: str) -> list[Found]:
    """Every date in ``text``, first found first, none overlapping another."""
    found: list[Found] = []
    for pattern in _DATES:
        for m in pattern.finditer(text):
            if not any(m.start() < f.end and f.start < m.end() for f in found):
                found.append(Found(m.start(), m.end(), m.group(0)))
    return sorted(found, key=lambda f: f.start)


def numbers(text: str) -> list[Found]:
    """The numbers written in digits in ``text``, outside its dates."""
    dates = date_spans(text)
    return [
        Found(m.start(), m.end(), m.group(0))
        for m in NUMBER.finditer(text)
        if not any(d.start <= m.start() < d.end for d in dates)
    ]


def moved_number(text: str, step: int) -> str:
    """A number as written (``1,200``, ``2.5``) moved up by ``step``, written the same way."""
    commas = "," in text
    value = Decimal(text.replace(",", "")) + step
    places = len(text.partition(".")[2])
    if places:
        return f"{value:,.{places}f}" if commas else f"{value:.{places}f}"
    return f"{int(value):,}" if commas else str(int(value))


def _ordinal(day: int) -> str:
    return "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _month_number(name: str) -> int:
    return _SHORT[name.lower().rstrip(".")[:3]]


def _month_text(original: str, month: int) -> str:
    full = MONTHS[month - 1]
    if original.rstrip(".").lower() in (m.lower() for m in MONTHS):
        text = full
    else:
        text = full[:3] + ("." if original.endswith(".") else "")
    return text.upper() if original.isupper() and len(original) > 1 else text


def shifted_date(found: str, times: int = 1) -> str | None:
    """The date ``found`` (one :func:`date_spans` returned) moved ``times`` by
    :data:`DATE_SHIFT`, or by ``times`` months when it has no day, written in the same form;
    None when it is no real date."""
    for index, pattern in enumerate(_DATES):
        m = pattern.fullmatch(found)
        if m is None:
            continue
        g = m.groupdict()
        try:
            month = int(g["month"]) if index == 0 else _month_number(g["month"])
            year = int(g["year"]) if g.get("year") else _LEAP
            if g.get("day") is None:
                years, later = divmod(month - 1 + times, 12)
                return _replaced(
                    found,
                    [
                        (m.start("month"), m.end("month"), _month_text(g["month"], later + 1)),
                        (m.start("year"), m.end("year"), str(year + years)),
                    ],
                )
            day = date(year, month, int(g["day"])) + times * DATE_SHIFT
        except (ValueError, KeyError):
            return None
        return _rewrite(found, m, index, day)
    return None


def _rewrite(found: str, m: re.Match[str], index: int, day: date) -> str:
    """``found`` with its day, month and year (and weekday) replaced by ``day``'s."""
    spans: list[tuple[int, int, str]] = []
    g = m.groupdict()
    if index == 0:
        spans += [
            (m.start("year"), m.end("year"), f"{day.year:04d}"),
            (m.start("month"), m.end("month"), f"{day.month:0{len(g['month'])}d}"),
            (m.start("day"), m.end("day"), f"{day.day:0{len(g['day'])}d}"),
        ]
        if g.get("wd"):
            spans.append((m.start("wd"), m.end("wd"), day.strftime("%a")))
    else:
        spans += [
            (m.start("month"), m.end("month"), _month_text(g["month"], day.month)),
            (m.start("day"), m.end("day"), str(day.day)),
        ]
        if g.get("suffix"):
            spans.append((m.start("suffix"), m.end("suffix"), _ordinal(day.day)))
        if g.get("year"):
            spans.append((m.start("year"), m.end("year"), str(day.year)))
    return _replaced(found, spans)


def _replaced(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def next_weekday(name: str, days: int = 1) -> str:
    """The weekday ``days`` after weekday ``name``, in its case ("Sunday" -> "Monday")."""
    following = WEEKDAYS[(WEEKDAYS.index(name.capitalize()) + days) % 7]
    if name.isupper():
        return following.upper()
    return following if name[0].isupper() else following.lower()
