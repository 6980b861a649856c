"""The greedy reference bot (issue 13): fire the group with the best expected damage at the
nearest enemy; else step toward it; else end the activation. Built only on the public API."""

from __future__ import annotations

from mac_tui.bots import api


def greedy(state: api.GameState) -> api.Decision:
    me = api.acting(state)
    if me is None or me.hex is None:  # deployment: let the engine place the frames, then start
        setup = api.legal_commands(state, (api.AutoDeploy, api.StartBattle))
        return api.Decision(setup[0] if setup else api.legal_commands(state)[0], note="deploy")
    foes = api.enemies(state)
    if not foes or foes[0].hex is None:
        return api.Decision(api.EndActivation(), note="no enemy in sight")
    target, there = foes[0], foes[0].hex
    # Every group's fire order at the nearest enemy that `step` accepts (the legal ones, in
    # `legal_commands`' order), each with its expected damage.
    orders = [api.FireGroup(group, target.id) for group in me.groups]
    shots = [c for c in orders if api.refusal(state, c) is None]
    scored = [(api.expected_damage(state, c), c) for c in shots]
    best = max(scored, key=lambda s: (s[0], -s[1].group), default=None)
    options = tuple((c.to_text(), round(e, 2)) for e, c in scored)
    if best is not None and best[0] > 0:
        return api.Decision(best[1], options, note=f"fire at the nearest, {target.id}")
    moves = [c for c in api.legal_commands(state, (api.Move,)) if isinstance(c, api.Move)]
    # the nearest hex to the target, ties by the command's text (written out only for those)
    nearest = min((api.distance(c.hex, there) for c in moves), default=None)
    closest = [c for c in moves if api.distance(c.hex, there) == nearest]
    step = min(closest, key=lambda c: c.to_text(), default=None)
    if step is not None and api.distance(step.hex, there) < api.distance(me.hex, there):
        return api.Decision(step, options, note=f"close on {target.id}")
    return api.Decision(api.EndActivation(), options, note="nothing to do")
