"""Textual CSS parsed once per process, not once per style-sheet change.

Textual parses a style sheet's sources into rule sets, and keeps the result only in the style
sheet object that parsed them. But each new screen or widget class brings CSS of its own, and
then, like a theme change, makes Textual re-parse *every* source in a fresh style sheet
(`Stylesheet.reparse`): a game re-parses the same few dozen sources some thirty times between
the title screen and its first battle, 40% of the CPU a game spends on reaching its title.

`SharedStylesheet` keeps the rule sets of each (source, location, scope, CSS variables) in one
cache for the whole process, which its re-parses use too. Rule sets are read-only once parsed
(Textual applies them to nodes, it never changes them), so sharing them is safe. A game forked
from the server's zygote (`server/zygote_main.py`) starts with the cache already filled by
`warm`: its title screen and every screen after it parse no CSS at all.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping

from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.types import CSSLocation

CACHE_SIZE = 2048  # sources x variable sets kept (a game's screens and a few themes)

_Key = tuple[str, CSSLocation, bool, int, str, frozenset[tuple[str, str]]]
_RULES: OrderedDict[_Key, list[RuleSet]] = OrderedDict()


class SharedStylesheet(Stylesheet):
    """A `Stylesheet` whose parsed rule sets come from the process-wide cache."""

    def __init__(self, *, variables: dict[str, str] | None = None) -> None:
        super().__init__(variables=variables)
        self._variables_key = frozenset(self._variables.items())

    def set_variables(self, variables: dict[str, str]) -> None:
        super().set_variables(variables)
        self._variables_key = frozenset(variables.items())

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        key = (css, read_from, is_default_rules, tie_breaker, scope, self._variables_key)
        rules = _RULES.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            _RULES[key] = rules
            while len(_RULES) > CACHE_SIZE:
                _RULES.popitem(last=False)
        return rules

    def reparse(self) -> None:
        """Textual's `reparse` (every source again, in a fresh style sheet so that an error
        leaves this one as it was), with the fresh one a `SharedStylesheet` too."""
        fresh = SharedStylesheet(variables=self._variables)
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            fresh.add_source(
                css,
                read_from=read_from,
                is_default_css=is_defaults,
                tie_breaker=tie_breaker,
                scope=scope,
            )
        try:
            fresh.parse()
        except Exception:
            self._invalid_css.update(fresh._invalid_css)
            raise
        self._rules = fresh.rules
        self._rules_map = None
        self.source = fresh.source
        self._require_parse = False


def cached_sources() -> int:
    """How many parsed sources the cache holds (for the tests and the zygote's log)."""
    return len(_RULES)


def warm(
    sources: Iterable[tuple[CSSLocation, str, int, str, bool]],
    variable_sets: Iterable[Mapping[str, str]],
) -> int:
    """Parse every (location, css, tie breaker, scope, is default) source under every set of
    CSS variables into the cache; the sources that would not parse are left out (a game
    parsing them shows Textual's own error). Returns the count of sources parsed."""
    sources = list(sources)
    parsed = 0
    for variables in variable_sets:
        sheet = SharedStylesheet(variables=dict(variables))
        for read_from, css, tie_breaker, scope, is_default in sources:
            try:
                sheet._parse_rules(css, read_from, is_default, tie_breaker, scope)
            except Exception:
                continue
            parsed += 1
    return parsed
