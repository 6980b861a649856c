"""The greedy reference bot (issue 13): fire the group with the best expected damage at the
nearest enemy; else step toward it; else end the activation. Built only on the public API."""

from __future__ import annotations

from mac_tui.bots import api


def greedy(state: api.GameState) -> api.Decision:
    me = api.acting(state)
    if me is None or me.hex is None:  # deployment: let the engine place the frames, then start
        setup = api.legal_commands(state, (api.AutoDeploy, api.StartBattle))
        return api.Decision(setup[0] if setup else api.legal_commands(state)[0], note="deploy")
    legal = api.legal_commands(state, (api.FireGroup, api.Move))  # only what it will weigh
    foes = api.enemies(state)
    if not foes or foes[0].hex is None:
        return api.Decision(api.EndActivation(), note="no enemy in sight")
    target, there = foes[0], foes[0].hex
    shots = [c for c in legal if isinstance(c, api.FireGroup) and c.target == target.id]
    scored = [(api.expected_damage(state, c), c) for c in shots]
    best = max(scored, key=lambda s: (s[0], -s[1].group), default=None)
    options = tuple((c.to_text(), round(e, 2)) for e, c in scored)
    if best is not None and best[0] > 0:
        return api.Decision(best[1], options, note=f"fire at the nearest, {target.id}")
    moves = [c for c in legal if isinstance(c, api.Move)]
    step = min(moves, key=lambda c: (api.distance(c.hex, there), c.to_text()), default=None)
    if step is not None and api.distance(step.hex, there) < api.distance(me.hex, there):
        return api.Decision(step, options, note=f"close on {target.id}")
    return api.Decision(api.EndActivation(), options, note="nothing to do")
