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

`SharedStylesheet.epoch` counts the changes of the style sheet that may change the styles of
nodes already styled: new variables (a theme), CSS read from a file, a source changed, a new
source that is not scoped. A widget class's scoped CSS (Textual's default for a widget's
`DEFAULT_CSS`) matches only nodes of that class and nodes inside them; Textual adds it as the
first such node is registered, before styling it, so no node styled before it came can match
it, and it is no such change. `style_basis` is what the screens and widgets that keep styles
(`internals.RestylesOnChange`, `widgets/focus_styles`) key them under: a new parse of the
sheet for scoped CSS of a new widget class (a dialog's, the battle screen's) then leaves
what they kept good.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import PurePath

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
        self.epoch = 0  # see the module docstring

    def set_variables(self, variables: dict[str, str]) -> None:
        key = frozenset(variables.items())
        if key != self._variables_key:
            self.epoch += 1
        super().set_variables(variables)
        self._variables_key = key

    def read(self, filename: str | PurePath) -> None:
        super().read(filename)
        self.epoch += 1

    def add_source(
        self,
        css: str,
        read_from: CSSLocation | None = None,
        is_default_css: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> None:
        location = ("", str(hash(css))) if read_from is None else read_from
        before = self.source.get(location)
        super().add_source(css, location, is_default_css, tie_breaker, scope)
        after = self.source.get(location)
        if after != before and (before is not None or after is None or not after.scope):
            self.epoch += 1

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


def style_basis(sheet: Stylesheet) -> object:
    """What the styles of nodes already styled depend on, of `sheet`: compare two with
    `same_basis`. For a `SharedStylesheet` the sheet and its `epoch`; for another, its rules
    (any new parse counts)."""
    if isinstance(sheet, SharedStylesheet):
        return (sheet, sheet.epoch)
    return sheet.rules


def same_basis(a: object, b: object) -> bool:
    return a is b or (isinstance(a, tuple) and a == b)


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
