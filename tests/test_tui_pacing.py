"""The app's clock: a ManualClock hands calls over only when advanced, in the order they come
due, to their owner's message queue; cancelled ones never; its time adds up exactly."""

from __future__ import annotations

from textual.app import App

from mac_tui.tui.pacing import ManualClock


async def test_a_manual_clock_hands_over_what_is_due_in_order_and_nothing_else() -> None:
    clock = ManualClock()
    calls: list[str] = []
    app: App[None] = App()
    async with app.run_test() as pilot:
        clock.call_after(app, 0.9, lambda: calls.append("b"))
        clock.call_after(app, 0.3, lambda: calls.append("a"))
        dropped = clock.call_after(app, 0.5, lambda: calls.append("dropped"))
        clock.call_after(app, 1.8, lambda: calls.append("c"))
        dropped.cancel()
        await pilot.pause()
        assert calls == [] and clock.waiting == [0.3, 0.9, 1.8]
        assert clock.advance(0.85) == 1  # a
        assert calls == []  # handed to the app's queue, not called on the spot
        assert clock.advance(0.05) == 1  # b, at 0.9
        await pilot.pause()
        assert calls == ["a", "b"]
        assert clock.advance(0.85) == 0  # 1.75 s
        assert clock.advance(0.05) == 1  # 0.85 + 0.05 + 0.85 + 0.05 is 1.8 exactly
        await pilot.pause()
        assert calls == ["a", "b", "c"] and clock.waiting == [] and clock.now() == 1.8
        assert clock.advance_to_next() == 0
