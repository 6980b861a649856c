"""Where the screens lean on Textual's private workings for speed (Textual is pinned, 8.2.8).

Each piece below names what of Textual it relies on; `tests/test_tui_internals.py` holds a
digest of each of those Textual functions' source and fails when the pinned version's code
changes, so an upgrade looks at every piece here again (besides the behaviour it tests).
`RELIES_ON` also lists what the earlier pieces rely on, which live beside the widgets they
serve (`screens/base.LaidOnce`, `widgets/uniform`, `widgets/kept_strips`,
`widgets/focus_styles`, `widgets/table`, `csscache`, `template`), so the same test covers
them.

- `RestylesOnChange` (every `GameScreen`, the dialogs, the day report, the debrief, the
  battle's history page): Textual restyles every node of a screen that is pushed
  (`Screen._on_screen_resume` calls `update_node_styles` when
  `events.ScreenResume.refresh_styles`, true for every push), though a new screen's nodes were
  styled a moment before, as they were mounted (`App._register` applies the style sheet to
  each widget it registers, after adding the CSS of the widget's classes,
  `Widget._post_register`), and a screen shown again was styled when it was last shown: 8 ms
  of a battle screen's 70, 1.5 ms for the history page at 80x24. The mixin's own handler runs
  before `Screen`'s (Textual dispatches a message to the handlers of the class's MRO in
  order, `MessagePump._get_dispatch_methods`) and turns the restyle off when nothing the
  screen's nodes are styled from changed since they were styled (at its compose, for its
  first showing; at its last showing after that): the style sheet (`csscache.style_basis`:
  its variables, and no CSS that may match nodes already styled; a widget class's scoped CSS,
  which matches only nodes of that class and inside them, registered and so styled after it
  came, is no such change), the classes and pseudo-classes of the app and the screen. What
  Textual leaves to a full restyle is done still: the nodes whose rules depend on their place
  among their siblings or on the focus inside them (`:first-child`, `:odd`, `:focus-within`...,
  which change with no restyle of their own; `Stylesheet.apply` marks such nodes) are
  restyled, and the scrollbars shown are styled as `Stylesheet.update_nodes` styles them. A
  change of class or focus inside the screen restyles the nodes concerned by itself, as
  always.
- `SpanCompositor` (every `GameScreen`'s compositor, under `screens/base.LaidOnce`): a partial
  repaint in Textual (`Compositor.render_partial_update`) draws every widget that overlaps
  the *box around* all the changed areas, each in full (`Compositor._get_renders`), and then
  keeps of it only the changed spans (`ChopsUpdate`). A battle key that changes a map row, the
  side panel, the message line and the footer so draws the whole screen, log and action bar
  included. `SpanCompositor` draws only the widgets under a changed span, and of each only
  the lines that hold one, then fills the chops as `Compositor._render_chops` does (front to
  back, the first strip for a cut wins) and hands the same spans to the same `ChopsUpdate`:
  the bytes written are the same, only lines no span shows are not drawn, nor the lines of a
  widget the widgets in front of it (drawn first) cover on every cut (a container under its
  children: its strips would win no cut). And a repaint of
  a widget that is laid out but out of sight (a hub section's table that lost the focus as its
  section went off the screen) does not throw away the map of the whole screen
  (`Compositor.update_widgets` drops it for any widget not in sight, so that the next widget
  asking for its place, `Compositor.find_widget`, has the whole screen arranged again, a
  millisecond in the hub): only a widget not in the map at all, a new one, does.
- `OneFrame` (every `GameScreen`): Textual paints a screen once its own messages are done
  (`Screen._on_idle` resumes the update timer), while the widgets of the screen may still be
  handling theirs: a hub section's table takes the focus in its own task after the section
  came forward, and its repaint, with the message line's, was a second frame. While a widget
  of the screen still has messages waiting or a repaint or layout asked for and not yet
  handed to the screen, the screen's idle is put off to the event loop's next turn (at most
  `SETTLE_TURNS` turns), so what one key causes is painted in one frame. Only the screen in
  front waits: one behind it (the battle under its history page) hands its repaint on to the
  front one as soon as Textual would, so it joins the front one's frame. And a widget in sight
  that asked for a repaint while the frame was being laid out (a table's scrollbar, whose
  thumb follows the table's new height: `Widget._size_updated` refreshes it from within the
  layout, after the widgets' repaints were collected) is drawn in that frame, not in a second
  one of its own (`Screen._compositor_refresh` draws what the compositor was told; the
  widget's repaint would reach it as a message only after the frame, `Widget._check_refresh`).
  And a scrollbar the layout gave a new size asks for no second layout (its new virtual size
  does, `Widget._size_updated`, though its parent arranges it and nothing is in it): a table
  whose height a key changed (its detail lines took one more) was painted twice.
- `PaintsOverScreens` (the day report, over the hub): a modal screen shows the screens behind
  it through its translucent background (`Screen.render` draws them, tinted, as its own
  background: `BackgroundScreen`, every widget of the hub each time), so what changed behind
  it reaches the terminal only through the modal's own frame. Textual lays out and repaints
  a screen behind on its own update timer and hands the changed regions on to the screen in
  front (`Screen._compositor_refresh`, which then paints again): a day (`d`) changed the
  hub's status and section as the report opened, and the report was painted two or three
  times, the whole hub drawn and tinted each time. The mixin, a `OneFrame`, waits as well for
  the screens behind it (their widgets' messages, a layout or repaint asked for), and its
  frame first takes in what they have to show (their layout, their repaint handed on as
  Textual hands it), so the report and the hub under it come in one frame.
- `start_offscreen` (the kept day report): Textual composes and mounts a screen's widgets
  when it is first pushed (`App.push_screen` registers a screen that is not running yet,
  `App._get_screen`), so the first day after the game opened paid for the report's compose.
  The function starts an installed screen the same way, in a pause, without pushing it: its
  widgets are composed, styled and mounted then, and laid out at the app's size
  (`Screen._refresh_layout`, which paints only a screen in front), so its first push finds
  it running and sized, as any later one (a first push lays a new screen out, then again
  for the Resize that layout sends it, the screens behind it too).
- `PaintsDirect` (the battle's map, side panel and one-line texts, and every screen's footer:
  the widgets a battle key repaints; since tab14 the tables and their vertical scrollbars):
  Textual's `Widget.refresh` marks the widget and prompts its message queue; on the queue's
  next turn its idle handler (`Widget._check_refresh`)
  posts `messages.Update` to the screen, whose handler (`Screen._on_update`) adds the widget
  to the screen's dirty widgets and prompts the screen's queue: two messages and two turns
  of the event loop per widget repainted, some 0.05 ms each, four widgets for a battle key
  that changes mode. The mixin's `refresh` adds the widget to its screen's dirty widgets at
  once when that is all Textual would do (a repaint only: no layout, styles or scrolling
  asked for; the widget shown; its screen in front and laid out), and prompts the screen.
  Not while the screen lays out or paints a frame (`OneFrame.framing`): Textual forgets the
  dirty widgets after a frame, so a repaint asked for then takes Textual's way (and
  `OneFrame` draws it in the frame if it can).
- `ParksChildren` (the hub's section stack, whose sections take turns, and the contracts
  section's board and launch plan): Textual sends a Hide
  to every widget of a subtree taken out of the layout (`display` off) and a Show and a
  Resize to every widget of one put back (`Screen._refresh_layout`, from the reflow's hidden
  and shown widgets), though nothing of it changed meanwhile: a hub section key so cost some
  forty messages. `SpanCompositor.reflow` leaves out of them the widgets a `ParksChildren`
  container parks or brings back at the size they had when parked (`Widget._size`): no Hide
  (its handler releases a scrollbar's mouse grab and blurs, and the hub moves the focus
  itself), no Show (its handler passes it to the scrollbars), and a Resize only for a new
  size (the terminal's changed meanwhile). A widget never laid out gets them as in Textual.
  And a parked widget that asks for a repaint (a table blurred as its section leaves)
  does not throw away the map of the screen (`SpanCompositor.update_widgets`); `OneFrame`
  waits for no widget that is not displayed, as nothing of it is painted. And a child parked
  or brought back (`ParksChildren.place`) is no change to the children of the child itself
  nor of the container's ancestors: Textual counts a change of `display` as one to the
  children of the node, of its parent and of every ancestor up to the screen
  (`NodeList.updated`), whose count keys each one's arrangement (`Widget.arrange`,
  `Screen.arrange`), its list of displayed children and its children's pseudo-classes of
  place, so a hub section key arranged the screen, the stack and the section anew, though
  only the stack's displayed children changed. `place` puts back the counts of the child and
  of the ancestors above a container whose size does not follow its children (no auto width
  or height, climbing while that holds): their arrangements are kept (0.3 ms of a section
  key), and still made anew whenever Textual clears them (a child asking for a layout clears
  its ancestors' arrangements, `Widget._check_refresh`). Since hub14 `place` sets the rule
  itself and asks the screen for its layout at once (what `Screen._on_layout` does), with
  the container's arrangement cleared as `Widget._check_refresh` clears it: Textual's setter
  also repaints the child (its styles cache cleared) and sends an Update and a Layout through
  the child's queue, two messages and a turn of the loop per child, though the new layout
  paints what it moved (the reflow marks the regions of every widget placed anew) and a child
  brought back at its size draws the lines it kept (0.15 ms of a section key; the launch
  plan's Enter and Esc too; `place_keeping_lines` then finds the child's lines as they
  were). And the container's arrangement is kept by the children displayed as well as by
  its size (`ParksChildren.arrange`; Textual keys it by the children's count, which each
  `place` moves on, so a section key arranged the stack anew though it had arranged it for
  that section before, 0.1 ms): kept while only `place` changed the children (a mount, a
  removal or a `display` set another way starts afresh), and forgotten whenever Textual
  clears the container's arrangements (a child asking for a layout, `Widget._check_refresh`).
- `focus_unparked` (the hub's section keys, the launch plan's Enter and Esc): Textual moves
  the focus with a Blur to the widget that had it and a Focus to the new one
  (`Screen.set_focus`); each handler restyles its widget for `:focus`
  (and its scrollbars), repaints it and sends a DescendantBlur or DescendantFocus
  up through every ancestor to the app (`Widget._on_blur`, `Widget._on_focus`): a hub section
  key did both, to two tables, some 2.5 ms of its 6.9. When the widget losing the focus lies
  in a child a `ParksChildren` container has just parked (nobody sees it), it keeps the look
  of focus it has (`has_focus`, so its `:focus` styles and the lines drawn with them), and the
  widget taking the focus gets no Focus event when it has that look already (it had the focus
  as its section was parked): only `Screen.focused` changes, which refreshes the bindings as
  `set_focus` does (`Screen._watch_focused`). A widget of the child coming back that kept the
  look of focus but does not take the focus now is blurred as Textual would have blurred it
  (it is seen again). Nothing in the hub handles the Descendant events; nodes styled from
  `:focus-within` (`Screen._update_focus_styles`) take Textual's way, as does any other move
  of the focus. The scroll into view that `set_focus` asks for is asked for the same way.
  A `ParksChildren` container may lie in a child of another (the market's two tables, the
  finances' views in `ParkingSwitcher`, in the hub's section stack): a widget is parked when
  the child holding it at any depth is, and the focus leaving a view parked moves as it
  leaves a section parked (`focus_in_place`, the view keys, goes through `focus_unparked`).
- `ParkingSwitcher` (the finances' views): Textual's `ContentSwitcher` shows a view by setting
  `display` (`ContentSwitcher.watch_current`); it parks and brings back its views instead.
- `KeptScrollBar` (the tables' vertical scrollbars, `KeepsBarLines`): a scrollbar whose thumb
  moved is drawn whole, each of its lines a new `Strip` styled again (`StylesCache.render_line`)
  though all but three or four are the same track line: a page of the ledger at 120x40 spent
  a third of its 4.3 ms there. Its lines alike are made the same strip (kept by their
  segments), so `KeepsStyledLines` styles each once. And a picture drawn before (tab14: the
  thumb where it was, at the same size, with the same figures and colours, what
  `ScrollBar.render` hands its `ScrollBarRender`) comes back as the same lines without being
  drawn again (`Widget._render_content` renders the bar whole on every refresh): a Home or
  End on the pilots at 80x24 drew the bar's 15 lines in 0.45 ms, 0.13 since.
- `focus_in_place` (the market's view key): `Screen.set_focus` sets the screen's `focused`
  reactive, which asks for a repaint of the whole screen (`Screen._on_timer_update` then
  draws every widget, a full update), though what a focus change changes repaints itself:
  the widgets whose look follows the focus are restyled (`Screen._update_focus_styles`,
  `Widget.watch_has_focus`), and a table shown in another's place is laid out and drawn by
  the layout. The focus is set as Textual sets it, less that repaint (unless one was asked
  for already).
- `SizedInItsLayout` (the message line, the hub's section stack): a widget given a new size by
  a layout asks for a layout of its own (`Widget._size_updated`), drawn in a second frame,
  though the layout that sized it already placed what is in it; the mixin asks for none.
- `ScrollbarsOnChange` (the tables): a layout hands every widget it places its size, its
  container's and a virtual size (`Widget._size_updated`); a scroll view compares that virtual
  size, which it never uses (it scrolls over its own), with its own, finds them different
  every time and so updates its scrollbars and repaints them on every layout that places it
  (`ScrollView._size_updated`, `Widget._scroll_update`): a hub section's table drew its
  scrollbar anew at each section key, 0.6 ms. The mixin updates them only when what they
  follow changed since the last update (the size, the container's size, its own virtual size,
  the gutter, the overflow and scrollbar styles, the scrollbars shown), and only once they
  settled (Textual's `_scrollbar_changes`, which steers the next update, is empty).
- `KeepsStyledLines` (the widgets whose lines are kept as the same `Strip` objects: the battle's
  side panel, the tables, `KeepsStrips`' widgets): Textual styles each line a widget repaints
  again (`StylesCache.render_line`: its background, the box of border, padding and outline,
  tint and opacity), though the widget gives back the line it gave before, and the line filters
  then make a new copy of each styled line (`StylesCache.render`, `Strip.apply_filter`'s cache
  is kept on the new line, so it is empty). A battle panel switching pictures (f, Tab, c, t)
  spent a millisecond of its 4.5 ms there, a hub section's table as much. `StyledLines`, the
  widget's styles cache, keeps the styled line under the very line it was made from, the
  widths and the two backgrounds, when the widget has no border, outline, padding, hatch, tint
  or opacity (the styled line is then a function of those alone; otherwise it styles as
  Textual does): the same line comes back as the same object, whose filtered copy and
  compositor cuts Textual keeps on it.
- `line_strips` (`widgets/kept_strips.KeepsStrips`: the star map, the refit bay's diagram and
  panels, the galaxy's panel, the footer...): Textual turns a widget's whole picture into lines
  on every repaint (`Visual.to_strips` -> `Content.render_strips`, which wraps and formats
  each line of the picture in turn, `Content._wrap_and_format`, and turns each into a strip,
  `_FormattedLine.to_strip`), though a cursor move on the star map changes two of its 35
  lines. `line_strips` gives the strips of one line of a picture, the very ones the whole
  picture's render gives for it: the line is wrapped and formatted alone (its index `y` in
  the picture set on the formatted lines, as `_wrap_and_format` numbers them: the strips'
  style meta carries the offset a text selection reads), and the widget's link style applied
  as `Visual.to_strips` does. Only for a picture without a text selection, aligned left and
  top (`Visual.to_strips` aligns the whole picture otherwise).
- `RepaintsChangedRows` (`KeepsStrips`' widgets: their lines kept as the same `Strip`
  objects): a widget's `refresh()` marks all of it dirty (`Widget._set_dirty`), and the
  compositor redraws and writes every line of it, though a cursor move on the star map
  changes two lines of 35 and a refit bay's cursor one or two of the diagram's. When the
  compositor collects the widget's dirty regions (`Compositor.update_widgets` calls
  `Widget._exchange_repaint_regions`, before a frame's layout in `Screen._refresh_layout`),
  a whole-widget repaint is narrowed to the rows whose line is not the very `Strip` object
  the widget last gave for that row (`render_line` notes each); the styles cache was cleared
  by the whole refresh, so every row drawn is drawn anew (`StylesCache.render_widget`). Only
  for a widget drawn with no border, padding or outline (its rows are its lines), and never
  when its size or look changed: a new visual style (the focus's background) makes every line
  a new object, and what the styles cache adds to a line (the backgrounds under it, tint,
  opacity, the app's line filters) is noted as the widget is drawn (`Widget.render_lines`)
  and compared. `laid_size` is a widget's content size from its last layout
  (`Widget._size`), which the narrowing asks for instead of the region; `selecting` says
  whether a text selection is being made on the screen (`Screen._selecting`), when a picture
  is drawn whole as `Visual.to_strips` draws it.
- `place_keeping_lines` (tab14: the market's two tables, the finances' views through
  `ParkingSwitcher`): a widget's `display` turned on or off refreshes it whole
  (`StringEnumProperty.__set__` -> `Widget.refresh` -> `Widget._set_dirty`), which empties its
  styles cache (`StylesCache.clear`), so a view brought back drew every line again through
  the widget's `render_line` and styled it (the finances' ledger, 33 lines at 120x40, 0.5 ms
  of `l`), though nothing of it changed while it was parked. The lines the styles cache held
  and the ones it had to draw again are put back as they were just before the change of
  `display`: anything that changed the widget while it was parked refreshed it then and
  emptied the cache itself, and the compositor still draws the whole view (its place on the
  screen is new in the layout), from those lines.
- `KeepsLinesOnNewHeight` (the tables): a layout that gives a widget a new size refreshes it
  whole (`Widget._size_updated`, `ScrollView._size_updated` -> `Widget._set_dirty`), so a
  table whose detail lines took one line more or less (a Home or End in the pilots or the
  market at 120x40) drew all its lines again. When only the height changed (the same width,
  and where it is scrolled to, its scrollbars and gutter the same after the layout as before),
  and the widget is drawn with nothing but its background (`plain_box`: no border, padding or
  outline, whose lines follow the height: `StylesCache.render_line`), its lines above the
  old bottom are kept as they were (a table's line follows its width, scroll offset and rows,
  never its height: `DataTable.render_line`); the lines below are drawn.
- `KeepsPaddedLines` (the detail panes under the tables, the market's view line): a widget
  padded at the left and right only (`padded_box`) is styled by `StylesCache.render_line`
  from each line alone too (the line padded with the inner background, `line_pad`), as a
  plain one (`KeepsStyledLines`), but `StyledLines` styles only plain ones: the detail pane's
  three lines were styled anew at each cursor key and view key, 0.17 ms of the market's Tab
  at 120x40 (0.08 since). `StyledPaddedLines` keeps them too, the padding in each one's key.
- `KeepsPages` (the tables, their scrollbars; since lp15 the footer, its page the focus and
  `footer_token`): a scroll refreshes a table whole, and a thumb
  that moved its scrollbar, so each of their lines went through the styles cache again
  (`StylesCache.render` -> `render_line`) though the page shown was one shown a key before
  (the pilots' Home and End at 80x24 take turns between two pages: 0.25 ms for the table's
  and the bar's 15 lines each). A widget says what its lines are drawn from
  (`_page_key`: a table's rows, scroll, cursor, hover, style and the clears of its line
  cache; a bar's picture), and a whole repaint of a page drawn before, in the same place,
  size, backgrounds and line filters (`Widget.render_lines`, a plain box only), gives back
  the lines it gave then, and leaves the styles cache as that render left it (the page's
  styled lines in it, none of them to draw again), so a later partial repaint draws as
  Textual would.
- `BubblesAtOnce` (the tables' RowHighlighted): a widget posts a message to itself
  (`MessagePump.post_message`), and on a later turn of its queue dispatches it
  (`MessagePump._dispatch_message`: to no handler here, `_get_dispatch_methods` walking the
  table's twenty classes) only to hand it to its parent (`MessagePump._on_message`,
  `Message._bubble_to`): a turn of the table's queue and its idle for every cursor key, 0.4
  ms of the pilots' Home and End at 80x24. A message of the kinds named, which the widget
  has no handler for (by name or `on` decorator, `handles`), is handed to the parent at once,
  as that dispatch would hand it (the prevented kinds noted on it, stopped at a parent that
  sent it). Not while a test's message hook or a subscriber to the widget's messages
  watches its dispatches (`message_hook`, `message_signal`), nor for one not to be dispatched.
- `KeepsFullFrame` (map14b: the battle screen under its log page): a screen coming back in
  front repaints whole (`Screen._on_screen_resume` refreshes it; `Compositor.render_update`
  then makes a full update, `render_full_update`: every widget's every line drawn, cut and
  joined, 1.4 ms of the battle's 3.3 as Esc closes its log page at 120x40), though nothing of
  it changed while the page covered it (the battle waits while its log page is open). The
  screen draws that full frame ahead, as `render_full_update` draws it (`_render_chops` over
  the whole screen), in the pause after the covering page's frame is painted (the page's
  `call_after_refresh`: no key waits on it; what was waiting to be painted is in it, so it
  is no longer waited for), and hands it to the terminal as its next frame in front when
  that is a full one at the same size and nothing of the screen asked for a repaint or a
  layout meanwhile (Textual counts the screen under the page as current, and paints a
  repaint of it by handing its regions to the page, `Screen._compositor_refresh`; the kept
  frame waits through that): a widget's repaint or layout reaches the screen, covered, as a message
  (`Screen._on_update`, `Screen._on_layout`), and in front, a `PaintsDirect` repaint is a
  dirty widget the screen's full repaint forgets (`Screen._on_timer_update`); any of them, a
  new layout, or a widget asking for a repaint during the frame (`OneFrame`'s late ones)
  drops the kept frame, and the screen is drawn as Textual draws it.
- `MovesKept`, `outermost` and `SpanCompositor`'s rows (lp15: the hub's section keys, the
  launch plan, every `GameScreen`'s partial frame): the terminal encoding of a partial frame
  (`ChopsUpdate.render_segments`) builds each cursor move with Rich (`Control.move_to`: a
  `Control` and a `Segment` per piece of a line, some 65 for a section key at 120x40);
  `MovesKept` writes the same string with each move worked out once per place. The frame's
  spans (`Compositor._regions_to_spans`, every row of every changed region merged) are found
  from the changed regions that no other one holds (`outermost`: the same cells; a new layout
  marks each widget it placed, twelve regions inside the section's own). And a widget is drawn
  on a row only where a chop that a span meets is still empty under it: a container under a
  changed row of a table was drawn for the row's other chops, which the frame never writes; a
  chop starting where a span ends, which Textual's compositor fills (the screen is under every
  change) and `ChopsUpdate` writes cropped to nothing (a cursor move), is given an empty strip,
  so the bytes are Textual's still (tests/test_tui_internals.py compares them through a round
  of battle keys, and the hub's frames cell for cell).
- `KeepsFrameRows` (dw15: the day report, pushed over the hub each day): a screen pushed
  again repaints whole, each row cut at its cuts and encoded anew, though only the rows of
  the report's new text changed; a row made of the same lines (by identity) at the same
  places under the same cuts as in the last full update is that update's row again, its
  chops and their bytes kept (see the class).
"""

from __future__ import annotations

import asyncio
import bisect
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, Self, cast

from rich.console import Console
from rich.control import Control
from textual import events
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate, ReflowResult
from textual._context import message_hook as message_hook_context_var
from textual._styles_cache import StylesCache
from textual.app import App
from textual.content import Content
from textual.css.styles import StylesBase
from textual.css.stylesheet import Stylesheet
from textual.dom import NoScreen
from textual.geometry import Region, Size, Spacing
from textual.layout import DockArrangeResult
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Static

from .csscache import same_basis, style_basis

if TYPE_CHECKING:
    _ScreenMixin = Screen[Any]  # what the mixin is mixed into
    _WidgetMixin = Widget
else:
    _ScreenMixin = object
    _WidgetMixin = object

#: The Textual functions the pieces above rely on, by piece (their digests are in the test);
#: and those the earlier pieces rely on, which live beside what they serve (named by module).
RELIES_ON: dict[str, tuple[str, ...]] = {
    "screens/base.LaidOnce": (
        "textual._compositor:Compositor.reflow",
        "textual._compositor:Compositor.full_map",
    ),
    "widgets/uniform.UniformLines, widgets/kept_strips.KeepsStrips": (
        "textual.widget:Widget.render_line",
        "textual.widget:Widget.render",
        "textual.screen:Screen.render",
        "textual._styles_cache:StylesCache.render_line",
    ),
    "widgets/focus_styles.KeepsFocusStyles, widgets/table.GameTable": (
        "textual.widget:Widget.watch_has_focus",
        "textual.css.stylesheet:Stylesheet.replace_rules",
        "textual.widgets._data_table:DataTable.notify_style_update",
        "textual.widgets._data_table:DataTable._on_resize",
        "textual.widgets._data_table:DataTable.render_line",
        "textual.dom:DOMNode._selector_names",
        "textual.css.model:RuleSet._post_parse",
        "textual.css.stylesheet:Stylesheet._process_component_classes",
        "textual.widgets._data_table:DataTable._render_line_in_row",
        "textual.widgets._data_table:DataTable._render_line",
        "textual.widgets._data_table:DataTable._should_highlight",
        "textual.widgets._data_table:DataTable._set_hover_cursor",
        "textual.css.stylesheet:Stylesheet.apply",
        "textual.css.stylesheet:Stylesheet.update_nodes",
    ),
    "csscache.SharedStylesheet": (
        "textual.css.stylesheet:Stylesheet._parse_rules",
        "textual.css.stylesheet:Stylesheet.reparse",
        "textual.css.stylesheet:Stylesheet.add_source",
        "textual.css.stylesheet:Stylesheet.set_variables",
        "textual.css.stylesheet:Stylesheet.read",
    ),
    "RestylesOnChange": (
        "textual.screen:Screen._on_screen_resume",
        "textual.message_pump:MessagePump._get_dispatch_methods",
        "textual.app:App.push_screen",
        "textual.app:App._register",
        "textual.widget:Widget._post_register",
        "textual.widget:Widget._on_compose",
        "textual.css.stylesheet:Stylesheet.apply",
        "textual.css.stylesheet:Stylesheet.update_nodes",
    ),
    "OneFrame": (
        "textual.widget:Widget._size_updated",
        "textual.screen:Screen._on_idle",
        "textual.message_pump:MessagePump._process_messages_loop",
        "textual.widget:Widget._check_refresh",
        "textual.screen:Screen._compositor_refresh",
        "textual.screen:Screen._refresh_layout",
    ),
    "SpanCompositor": (
        "textual._compositor:Compositor.render_partial_update",
        "textual._compositor:Compositor._render_chops",
        "textual._compositor:Compositor._get_renders",
        "textual._compositor:Compositor._regions_to_spans",
        "textual._compositor:Compositor.visible_widgets",
        "textual._compositor:Compositor.cuts",
        "textual._compositor:ChopsUpdate.__rich_console__",
        "textual._compositor:Compositor.update_widgets",
        "textual._compositor:Compositor.full_map",
        "textual._compositor:Compositor.find_widget",
    ),
    "ParksChildren": (
        "textual._node_list:NodeList.updated",
        "textual._node_list:NodeList.displayed",
        "textual.css._style_properties:StringEnumProperty.__set__",
        "textual.dom:DOMNode.display",
        "textual.widget:Widget.arrange",
        "textual.screen:Screen.arrange",
        "textual.widget:Widget.first_child",
        "textual.widget:Widget._check_refresh",
        "textual._compositor:Compositor.reflow",
        "textual.screen:Screen._refresh_layout",
        "textual.widget:Widget._size_updated",
        "textual.widget:Widget._on_hide",
        "textual.widget:Widget._on_show",
        "textual.widget:Widget.size",
        "textual._compositor:Compositor.update_widgets",
        "textual._compositor:Compositor.find_widget",
    ),
    "template.Template, template.HeldDriver, unsettled_app": (
        "textual.app:App._process_messages",
        "textual.app:App.run_async",
        "textual.app:App._on_resize",
        "textual.app:App._on_idle",
        "textual.drivers.linux_driver:LinuxDriver.start_application_mode",
        "textual.screen:Screen._on_timer_update",
    ),
    "PaintsOverScreens": (
        "textual.app:App._background_screens",
        "textual.screen:Screen.render",
        "textual.screen:Screen._on_timer_update",
        "textual.screen:Screen._compositor_refresh",
        "textual.screen:Screen._refresh_layout",
        "textual.screen:Screen._on_idle",
    ),
    "start_offscreen": ("textual.app:App._get_screen", "textual.app:App.push_screen"),
    "PaintsDirect": (
        "textual.widget:Widget.refresh",
        "textual.widget:Widget._check_refresh",
        "textual.screen:Screen._on_update",
        "textual.screen:Screen._on_idle",
        "textual.screen:Screen._on_timer_update",
        "textual.screen:Screen._refresh_layout",
        "textual.screen:Screen._compositor_refresh",
    ),
    "SizedInItsLayout": ("textual.widget:Widget._size_updated",),
    "line_strips": (
        "textual.visual:Visual.to_strips",
        "textual.content:Content.render_strips",
        "textual.content:Content._wrap_and_format",
        "textual.content:Content.split",
        "textual.content:Content.from_rich_text",
        "textual.content:_FormattedLine.to_strip",
    ),
    "laid_size": ("textual.widget:Widget._size_updated",),
    "selecting": ("textual.visual:Visual.to_strips",),
    "RepaintsChangedRows": (
        "textual.widget:Widget._set_dirty",
        "textual.widget:Widget.render_lines",
        "textual.widget:Widget._exchange_repaint_regions",
        "textual._compositor:Compositor.update_widgets",
        "textual.screen:Screen._refresh_layout",
        "textual._styles_cache:StylesCache.render_widget",
    ),
    "KeptScrollBar, KeepsBarLines": (
        "textual.widget:Widget.vertical_scrollbar",
        "textual.widget:Widget.render_line",
        "textual._styles_cache:StylesCache.render_line",
    ),
    "focus_in_place": ("textual.screen:Screen.set_focus", "textual.screen:Screen._on_timer_update"),
    "ScrollbarsOnChange": (
        "textual.scroll_view:ScrollView._size_updated",
        "textual.widget:Widget._scroll_update",
        "textual.widget:Widget._refresh_scrollbars",
    ),
    "ParkingSwitcher": ("textual.widgets._content_switcher:ContentSwitcher.watch_current",),
    "focus_unparked": (
        "textual.screen:Screen.set_focus",
        "textual.screen:Screen._update_focus_styles",
        "textual.screen:Screen._watch_focused",
        "textual.widget:Widget._on_focus",
        "textual.widget:Widget._on_blur",
    ),
    "KeepsStyledLines": (
        "textual._styles_cache:StylesCache.render_widget",
        "textual._styles_cache:StylesCache.render",
        "textual._styles_cache:StylesCache.render_line",
        "textual.widget:Widget.__init__",
    ),
    # tab14
    "place_keeping_lines, kept_styled_lines, put_back_styled_lines": (
        "textual.css._style_properties:StringEnumProperty.__set__",
        "textual.dom:DOMNode.display",
        "textual.widget:Widget.refresh",
        "textual.widget:Widget._set_dirty",
        "textual._styles_cache:StylesCache.clear",
        "textual._styles_cache:StylesCache.set_dirty",
        "textual._styles_cache:StylesCache.render",
    ),
    "KeepsLinesOnNewHeight": (
        "textual.widget:Widget._size_updated",
        "textual.scroll_view:ScrollView._size_updated",
        "textual.widget:Widget._scroll_update",
        "textual.widget:Widget._set_dirty",
        "textual._styles_cache:StylesCache.render_line",
        "textual.widgets._data_table:DataTable.render_line",
    ),
    # map14b
    "KeepsFullFrame": (
        "textual._compositor:Compositor.render_update",
        "textual._compositor:Compositor.render_full_update",
        "textual._compositor:Compositor._render_chops",
        "textual.screen:Screen._on_screen_resume",
        "textual.screen:Screen._compositor_refresh",
        "textual.screen:Screen._on_timer_update",
        "textual.screen:Screen._on_update",
        "textual.screen:Screen._on_layout",
        "textual.screen:Screen._refresh_layout",
        "textual.screen:Screen._invoke_later",
        "textual.message_pump:MessagePump.call_after_refresh",
        "textual.message_pump:MessagePump._get_dispatch_methods",
        "textual.widget:Widget._check_refresh",
        "textual.app:App._background_screens",
    ),
    "KeptScrollBar (its pictures kept)": (
        "textual.widget:Widget._render_content",
        "textual.widget:Widget.render_line",
        "textual.scrollbar:ScrollBar.render",
        "textual.scrollbar:ScrollBar._render_bar",
        "textual.scrollbar:ScrollBarRender.__rich_console__",
    ),
    "KeepsPaddedLines, StyledPaddedLines, padded_box": (
        "textual._styles_cache:StylesCache.render_line",
        "textual._styles_cache:StylesCache.render",
    ),
    "KeepsPages": (
        "textual.widget:Widget.render_lines",
        "textual._styles_cache:StylesCache.render_widget",
        "textual._styles_cache:StylesCache.render",
        "textual.widgets._data_table:DataTable._render_line",
    ),
    "BubblesAtOnce, handles": (
        "textual.message_pump:MessagePump.post_message",
        "textual.message_pump:MessagePump._dispatch_message",
        "textual.message_pump:MessagePump._get_dispatch_methods",
        "textual.message_pump:MessagePump._on_message",
        "textual.message_pump:MessagePump._process_messages_loop",
        "textual.message:Message._bubble_to",
        "textual.widget:Widget.post_message",
        "textual.widgets._data_table:DataTable._highlight_row",
    ),
    "widgets/table.GameTable (its `Repaint`)": (
        "textual.widgets._data_table:DataTable.render_lines",
        "textual.widgets._data_table:DataTable.render_line",
        "textual.widgets._data_table:DataTable._render_line",
        "textual.widgets._data_table:DataTable._get_offsets",
        "textual.widgets._data_table:DataTable._y_offsets",
    ),
    # ---- hub14 ----
    "call_later_counted, scroll_focus_into_view": (
        "textual._callback:count_parameters",
        "textual._callback:_invoke",
        "textual.message_pump:MessagePump.call_later",
        "textual.screen:Screen.set_focus",
        "textual.widget:Widget.scroll_to_widget",
        "textual.widget:Widget.max_scroll_x",
        "textual.widget:Widget.max_scroll_y",
    ),
    "ParksChildren.arrange (kept by the children displayed)": (
        "textual.widget:Widget.arrange",
        "textual.widget:Widget._check_refresh",
        "textual.widget:Widget._clear_arrangement_cache",
        "textual._node_list:NodeList.displayed",
        "textual._node_list:NodeList.updated",
        "textual._compositor:Compositor.reflow",
    ),
    "ParksChildren.place (the rule set and the layout asked for directly)": (
        "textual.css.styles:RenderStyles.set_rule",
        "textual.css.styles:Styles.set_rule",
        "textual.css._style_properties:StringEnumProperty.__set__",
        "textual.dom:DOMNode.display",
        "textual.widget:Widget.refresh",
        "textual.widget:Widget._check_refresh",
        "textual.widget:Widget._clear_arrangement_cache",
        "textual.screen:Screen._on_layout",
    ),
}


#: Pseudo-classes that change with no restyle of their own (`Stylesheet.apply` marks the nodes
#: whose rules use them); they are left out of a screen's look, and such nodes are restyled.
UNTRACKED_PSEUDO_CLASSES = frozenset(Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE)


class RestylesOnChange(_ScreenMixin):
    """A screen restyled when it is shown only if what its nodes are styled from changed since
    they were styled (see the module docstring). Comes first among the bases."""

    _styled_under: tuple[object, ...] | None = None

    def _style_look(self) -> tuple[object, ...]:
        app = self.app
        return (
            style_basis(app.stylesheet),  # its variables and the CSS that may match (csscache)
            frozenset(app.classes),
            frozenset(app.get_pseudo_classes()) - UNTRACKED_PSEUDO_CLASSES,
            frozenset(self.classes),
            frozenset(self.get_pseudo_classes()) - UNTRACKED_PSEUDO_CLASSES,
        )

    async def _on_compose(self, event: events.Compose) -> None:
        """Before Textual composes the screen (its own `_on_compose` runs next): the screen
        itself is styled, its children will be as they are mounted."""
        self._styled_under = self._style_look()

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        kept = self._styled_under
        look = self._style_look()
        if (
            event.refresh_styles
            and kept is not None
            and self.is_attached
            and same_basis(kept[0], look[0])
            and kept[1:] == look[1:]
        ):
            event.refresh_styles = False  # `Screen._on_screen_resume`, next, skips it
            self._restyle_untracked()
        self._styled_under = look

    def _restyle_untracked(self) -> None:
        """What a full restyle would change: the nodes styled from untracked pseudo-classes,
        and the scrollbars shown (`Stylesheet.update_nodes`)."""
        sheet = self.app.stylesheet
        for node in self.walk_children(with_self=True):
            if node._has_order_style or node._has_odd_or_even or node._has_focus_within:
                sheet.update_nodes((node,), animate=False)  # the node and its scrollbars
            elif isinstance(node, Widget) and node.is_scrollable:
                style_scrollbars(node)


def style_scrollbars(widget: Widget) -> None:
    """Style the scrollbars `widget` shows, as `Stylesheet.update_nodes` styles them."""
    apply = widget.app.stylesheet.apply
    vertical = widget.show_vertical_scrollbar and widget.scrollbar_size_vertical
    horizontal = widget.show_horizontal_scrollbar and widget.scrollbar_size_horizontal
    if vertical:
        apply(widget.vertical_scrollbar)
    if horizontal:
        apply(widget.horizontal_scrollbar)
    if vertical and horizontal:
        apply(widget.scrollbar_corner)


class ParksChildren(_WidgetMixin):
    """A container whose children take turns: one displayed, the others parked with
    `display` off (see `SpanCompositor.reflow`). Comes first among the bases."""

    # The children's count (`NodeList._updates`) as `place` last left it: the arrangements
    # kept by displayed child hold while nothing else changed the children (hub14).
    _placed_updates: int | None = None
    _arranged: dict[tuple[object, ...], DockArrangeResult] | None = None

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        """`Widget.arrange`, kept by the children displayed as well as by the size (Textual
        keys it by the children's count, which each `place` moves on: a section key
        arranged the stack anew for a section it had arranged before; see the module
        docstring)."""
        nodes = self._nodes
        kept = self._arranged
        if kept is None or nodes._updates != self._placed_updates:
            kept = self._arranged = {}  # a child mounted, removed or shown by another way
            self._placed_updates = nodes._updates
        key = (size, optimal, self.screen.size, tuple(nodes.displayed))
        found = kept.get(key)
        if found is None:
            found = kept[key] = super().arrange(size, optimal)
        return found

    def _clear_arrangement_cache(self) -> None:
        self._arranged = None  # a child asked for a layout (`Widget._check_refresh`)...
        super()._clear_arrangement_cache()

    def place(self, child: Widget, displayed: bool) -> None:
        """`child.display = displayed`, counted as a change to this container's children
        only, and the screen asked for its new layout at once (see the module docstring)."""
        try:
            screen = self.screen
        except NoScreen:
            screen = None
        if screen is None or not child.is_mounted:
            self._place_as_textual(child, displayed)
            return
        # What Textual's `display` setter does (`StringEnumProperty.__set__`: the rule set,
        # `NodeList.updated`, `Widget.refresh(layout=True)` of the child, then its
        # `Widget._check_refresh` and the screen's `Screen._on_layout`), less the child's
        # repaint and its two messages (hub14): the new layout paints what it moved.
        if not child.styles.set_rule("display", "block" if displayed else "none"):
            return
        nodes = self._nodes
        placed = nodes._updates == self._placed_updates
        nodes._updates += 1  # this container's displayed children changed
        if placed:
            self._placed_updates = nodes._updates  # its kept arrangements hold (`arrange`)
        child._layout_updates += 1
        self._layout_updates += 1
        node: Any = self
        while node.styles.auto_dimensions:  # `Widget._check_refresh`'s arrangements cleared
            node = node.parent
            if not isinstance(node, Widget):
                break
            node._clear_arrangement_cache()
            node._layout_updates += 1
        screen._layout_required = True  # `Screen._on_layout`
        screen.check_idle()

    def _place_as_textual(self, child: Widget, displayed: bool) -> None:
        """`place` through Textual's `display` setter (a child not mounted yet)."""
        counts = [child._nodes]
        node: Any = self
        while not node.styles.auto_dimensions and not isinstance(node, Screen):
            node = node.parent
            if not isinstance(node, Widget):
                break
            counts.append(node._nodes)
        kept = [(nodes, nodes._updates) for nodes in counts]
        child.display = displayed
        for nodes, updates in kept:
            nodes._updates = updates


class ParkingSwitcher(ParksChildren, ContentSwitcher):
    """Textual's `ContentSwitcher` whose views are parked and brought back
    (`ParksChildren.place`) rather than hidden and shown: a view key sends no Hide, Show or
    Resize, and the focus moved by `focus_in_place` makes no Blur and Focus round."""

    def watch_current(self, old: str | None, new: str | None) -> None:
        with self.app.batch_update():
            for child in self.children:
                if child.id in (old, new) and child.display != (child.id == new):
                    place_keeping_lines(self, child, child.id == new)


def under_parking(widget: Widget) -> bool:
    """Whether `widget` lies inside a child of a `ParksChildren` container."""
    return next(parking_places(widget), None) is not None


def parking_places(widget: Widget) -> Iterator[tuple[ParksChildren, Widget]]:
    """Each `ParksChildren` container `widget` lies in (a view's inside a hub section),
    innermost first, with the child of it that holds `widget`."""
    node: Any = widget
    while (up := node.parent) is not None:
        if isinstance(up, ParksChildren):
            yield up, node
        node = up


def parked(widget: Widget) -> bool:
    """Whether `widget` lies inside a parked (not displayed) child of a `ParksChildren`, at
    any depth (a view parked in a section shown, or a section parked)."""
    return any(not child.display for _, child in parking_places(widget))


def focus_in_place(screen: Screen[Any], widget: Widget) -> None:
    """`screen.set_focus(widget)` without the repaint of the whole screen that Textual's
    `Screen.focused` reactive asks for, and with no Blur and Focus round when a view parked
    keeps the focus's look (`focus_unparked`; see the module docstring)."""
    asked = screen._repaint_required
    focus_unparked(screen, widget)
    if not asked:
        screen._repaint_required = False


def focus_unparked(screen: Screen[Any], widget: Widget) -> None:
    """`screen.set_focus(widget)`, but with no Blur to a widget that had the focus and has just
    been parked, nor a Focus to `widget` when it has the look of focus already (see the
    module docstring)."""
    was = screen.focused
    if widget is was:
        return
    # the innermost container that has just parked the child holding `was`
    parked_in = () if was is None else parking_places(was)
    leaving = next((place for place in parked_in if not place[1].display), None)
    if (
        was is None
        or leaving is None
        or not widget.focusable
        or any(node._has_focus_within for node in was.ancestors_with_self)
        or any(node._has_focus_within for node in widget.ancestors_with_self)
    ):
        screen.set_focus(widget)
        return
    stack, child = leaving
    kept: dict[Widget, Widget] = stack.__dict__.setdefault("_focus_kept", {})
    kept[child] = was  # it keeps the look of focus while parked
    coming = next((child for up, child in parking_places(widget) if up is stack), None)
    if coming is not None:
        left = kept.pop(coming, None)
        if left is not None and left is not widget and left.has_focus:
            left.post_message(events.Blur())  # seen again without the focus
    screen.focused = widget  # `_watch_focused`: the bindings refreshed
    if not widget.has_focus:
        widget.post_message(events.Focus())

    call_later_counted(screen, scroll_focus_into_view, screen, widget)


def scroll_focus_into_view(screen: Screen[Any], widget: Widget) -> None:
    """The scroll `Screen.set_focus` asks for, as it asks for it (unless no container of the
    widget can scroll at all: nothing to scroll, the walk saved)."""
    if (
        screen.focused is widget
        and not scrolled_as_far_as_it_can(widget)  # (the cheaper look first)
        and not screen.can_view_entire(widget)
    ):
        screen.scroll_to_center(widget, origin_visible=True)


def call_later_counted(node: Widget | Screen[Any], callback: Any, *args: object) -> None:
    """`node.call_later(callback, *args)` with the parameters of what is called counted
    already: Textual counts them when it runs the callback (`_callback.count_parameters`,
    kept on the callable as `_param_count`), and a `partial` made anew by each
    `MessagePump.call_later` is inspected anew (`inspect.signature`: 0.07 ms, a tenth of the
    hub's messages between a section key and its frame; hub14)."""
    bound: Any = partial(callback, *args)
    bound._param_count = 0  # what `count_parameters` would find: all given
    node.post_message(events.Callback(callback=bound))


def scrolled_as_far_as_it_can(widget: Widget) -> bool:
    """Whether no container of `widget` can scroll at all (each at offset 0 and with nothing
    to scroll: `Widget.scroll_to_widget` would clamp every container's scroll to where it is,
    and change nothing; the hub's section tables, which a section key focuses): the walk up
    the tree that scrolls nothing is saved (hub14)."""
    node = widget.parent
    while isinstance(node, Widget):
        if node.max_scroll_x or node.max_scroll_y or node.scroll_offset:
            return False
        node = node.parent
    return True


NOTHING = Strip([])  # a chop's piece that a frame writes cropped to no cell


def outermost(regions: Iterable[Region]) -> list[Region]:
    """`regions` less those inside another one: the same cells, so the same spans
    (`Compositor._regions_to_spans` merges each row's ranges), found from fewer rows. A new
    layout marks every widget it placed anew, a section key at 120x40 some twelve regions
    inside the section's own (184 rows merged into 38: 0.06 ms; lp15)."""
    kept: list[Region] = []
    for region in sorted(regions, key=lambda r: r.width * r.height, reverse=True):
        if not any(outer.contains_region(region) for outer in kept):
            kept.append(region)
    return kept


class SpanCompositor(Compositor):
    """Textual's compositor, drawing for a partial repaint only the lines a changed span
    shows (see the module docstring)."""

    def update_widgets(self, widgets: set[Widget]) -> None:
        stale = self._full_map_invalidated
        super().update_widgets(widgets)
        if not stale and self._full_map_invalidated:
            known = self._full_map.keys()
            if all(w in known or parked(w) for w in widgets):
                self._full_map_invalidated = False  # out of sight or parked, not new

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """Textual's new layout, without the Hide, Show and Resize events of the widgets a
        `ParksChildren` container parks or brings back at the size they had."""
        result = super().reflow(parent, size)
        if not (result.hidden or result.shown):
            return result
        hidden = {w for w in result.hidden if not parked(w)}
        shown: set[Widget] = set()
        resized = set(result.resized)
        placed = self._full_map
        for widget in result.shown:
            laid = widget._size  # the size of its last layout (`Widget._size_updated`)
            if not laid or not under_parking(widget):
                shown.add(widget)  # new: shown and sized as Textual does
            elif placed[widget].region.size != laid:
                resized.add(widget)
        return ReflowResult(hidden, shown, resized)

    def render_partial_update(self) -> ChopsUpdate | None:
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        spans = list(self._regions_to_spans(outermost(update_regions)))
        chops = self._span_chops(spans)
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        return MovesKept(chops, spans, chop_ends)

    def _span_chops(
        self, spans: Sequence[tuple[int, int, int]]
    ) -> Sequence[Mapping[int, Strip | None]]:
        """`Compositor._render_chops` over the lines the spans show: each visible widget under
        a span, front to back, drawn from its first line where it shows in a chop a span
        meets to its last (`Compositor._get_renders` draws every widget over the box around
        all the changes, in full), and its lines cut into the chops no widget in front of it
        filled. A widget is drawn on a row only where a chop that a span meets is still
        empty under it: not where the widgets in front hide it (a container under its
        children), nor for chops beside the spans that the frame does not write (lp15: a
        container under a changed row of a table filled the row's other chops too)."""
        cuts = self.cuts
        chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        # per row, the chops a span meets that no widget filled yet (their cuts, in order)
        wanted: dict[int, list[int]] = {}
        for y, x1, x2 in spans:
            row_cuts = cuts[y]
            first = max(0, bisect.bisect_right(row_cuts, x1) - 1)  # the chop holding x1
            last = min(bisect.bisect_left(row_cuts, x2), len(row_cuts) - 1)  # cuts < x2
            met = row_cuts[first:last]
            found = wanted.get(y)
            wanted[y] = met if found is None else sorted({*found, *met})
        span_rows = sorted(wanted)
        bisect_left = bisect.bisect_left
        for widget, (region, clip) in self.visible_widgets.items():
            seen = region.intersection(clip)
            left, right = seen.x, seen.right
            if not seen.width:
                continue
            top = bottom = -1
            for y in span_rows[
                bisect_left(span_rows, seen.y) : bisect_left(span_rows, seen.bottom)
            ]:
                empty = wanted[y]
                i = bisect_left(empty, left)
                if i < len(empty) and empty[i] < right:
                    if top < 0:
                        top = y
                    bottom = y + 1
            if top < 0:
                continue  # under no span, or hidden wherever a span is
            crop = Region(left - region.x, top - region.y, seen.width, bottom - top)
            strips = widget.render_lines(crop)
            for y, strip in zip(range(top, bottom), strips, strict=False):
                unfilled = wanted.get(y)
                if unfilled is None:
                    continue  # a row no span shows
                line, row_cuts = chops[y], cuts[y]
                start = bisect_left(row_cuts, left)
                final_cuts = row_cuts[start : bisect.bisect_right(row_cuts, right, start)]
                pieces = strip.divide([cut - left for cut in final_cuts[1:]])
                for cut, piece in zip(final_cuts, pieces, strict=False):
                    if line.get(cut) is None:
                        line[cut] = piece
                del unfilled[bisect_left(unfilled, left) : bisect_left(unfilled, right)]  # filled
        # A chop starting where a span ends: Textual's compositor draws it (every widget over
        # the box around the changes, the screen's included, fills every chop of a row), and
        # `ChopsUpdate` writes it cropped to nothing: a cursor move. The same bytes here.
        for y, _, x2 in spans:
            line = chops[y]
            if x2 in line and line[x2] is None:
                line[x2] = NOTHING
        return chops


SETTLE_TURNS = 8  # event-loop turns a screen's repaint waits for its widgets, at most


def unsettled(screen: Screen[Any]) -> bool:
    """Whether a widget of `screen` still has messages to handle, or a repaint or a new
    layout asked for that it has not handed to the screen yet."""
    waiting = list(screen._nodes)
    while waiting:
        node = waiting.pop()
        if not node.display:
            continue  # nothing of it is painted (a parked hub section)
        if not node._message_queue.empty() or node._repaint_required or node._layout_required:
            return True
        waiting.extend(node._nodes)
    return False


class OneFrame(_ScreenMixin):
    """A screen painted once its widgets have handled what a key caused (see the module
    docstring). Comes first among the bases."""

    _settle_turns = 0
    framing = False  # laying out or painting a frame (`PaintsDirect` waits its turn then)

    def _on_timer_update(self) -> None:
        self.framing = True
        try:
            super()._on_timer_update()
        finally:
            self.framing = False

    def _refresh_layout(self, *args: Any, **kwargs: Any) -> None:
        framing, self.framing = self.framing, True
        try:
            super()._refresh_layout(*args, **kwargs)
        finally:
            self.framing = framing
        # A scrollbar the layout gave a new size asked for a layout of its own (its virtual
        # size, `Widget._size_updated`): a second one, in a frame of its own, though the
        # layout that sized it placed it (its parent arranges it; nothing is in it). Its
        # repaint is drawn in this frame (`_compositor_refresh`).
        for widget in self._compositor.visible_widgets:
            if isinstance(widget, ScrollBar) and widget._layout_required:
                widget._layout_required = False

    def _unsettled(self) -> bool:
        return unsettled(self)

    async def _on_idle(self, event: events.Idle) -> None:
        if (
            self._settle_turns < SETTLE_TURNS
            and (self._layout_required or self._repaint_required or self._dirty_widgets)
            and self.is_active
            and self._unsettled()
        ):
            self._settle_turns += 1
            event.prevent_default()  # not `Screen._on_idle` yet: asked again next turn
            asyncio.get_running_loop().call_soon(self.check_idle)
            return
        self._settle_turns = 0

    def _compositor_refresh(self) -> None:
        app = self.app
        if self is app.screen and not app.is_inline:
            late = {
                widget
                for widget in self._compositor.visible_widgets
                if widget._repaint_required and widget.display
            }
            if late:  # asked for during this frame's layout: drawn in it (module docstring)
                for widget in late:
                    widget._repaint_required = False
                self._compositor.update_widgets(late)
        super()._compositor_refresh()


def asks_for_a_frame(screen: Screen[Any]) -> bool:
    """Whether `screen` has a layout or repaint asked for and not yet painted."""
    return bool(screen._layout_required or screen._repaint_required or screen._dirty_widgets)


class PaintsOverScreens(OneFrame):
    """A screen whose frame waits for the screens behind it and takes in what they have to
    show (see the module docstring). Comes first among the bases."""

    def _behind(self) -> list[Screen[Any]]:
        app = self.app
        if app.screen is not self:
            return []
        return [screen for screen in app._background_screens if screen is not self]

    def _unsettled(self) -> bool:
        return unsettled(self) or any(
            asks_for_a_frame(screen) or unsettled(screen) for screen in self._behind()
        )

    def _on_timer_update(self) -> None:
        for screen in self._behind():
            # What their update timer would do (`Screen._on_timer_update`); behind, their
            # frame is handed on to this one (`Screen._compositor_refresh`).
            if screen._layout_required:
                screen._refresh_layout()
                screen._layout_required = False
                screen._dirty_widgets.clear()
            if screen._repaint_required:
                screen._dirty_widgets.clear()
                screen._dirty_widgets.add(screen)
                screen._repaint_required = False
            if screen._dirty_widgets:
                screen._compositor.update_widgets(screen._dirty_widgets)
                screen._compositor_refresh()
            # Textual's hand-on asks the screen behind to repaint itself whole at its next
            # update (which it would hand on again, and this one paint again): what it shows
            # is in this frame, and it is repainted whole when it comes back to the front.
            screen._repaint_required = False
        super()._on_timer_update()


async def start_offscreen(app: App[Any], screen: Screen[Any]) -> None:
    """Start the installed `screen` (compose and mount its widgets) without showing it, as
    its first push would, and lay it out at the app's size (see the module docstring)."""
    if screen.is_running:
        return
    await app._get_screen(screen)[1]
    if screen.is_attached and screen._size != app.size:
        screen._refresh_layout(app.size)  # not in front: nothing is painted


def paints_direct(widget: Widget) -> Screen[Any] | None:
    """The screen a repaint of `widget` may go to at once (`PaintsDirect`), or None: the
    widget is mounted, shown, asks for nothing else (styles, scrolling, a layout), and its
    screen is in front, laid out, a `OneFrame` screen and not in the middle of a frame."""
    if (
        not widget._is_mounted
        or widget._closing
        or widget._layout_required
        or widget._refresh_styles_required
        or widget._scroll_required
        or not widget.display
    ):
        return None
    try:
        screen = widget.screen
    except NoScreen:
        return None
    if (
        not isinstance(screen, OneFrame)
        or screen.framing
        or screen is not widget.app.screen
        or screen not in screen._compositor
    ):
        return None
    return screen


class PaintsDirect(_WidgetMixin):
    """A widget whose repaint goes to its screen at once (see the module docstring). Comes
    first among the bases."""

    def refresh(
        self,
        *regions: Region,
        repaint: bool = True,
        layout: bool = False,
        recompose: bool = False,
    ) -> Self:
        screen = None if layout or recompose or not repaint else paints_direct(self)
        if screen is None:
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        # `Widget.refresh`, less its `check_idle`; then what `Widget._check_refresh` and
        # `Screen._on_update` would do, a message and a turn of the widget's queue later
        self._layout_cache.clear()
        self._set_dirty(*regions)
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        screen._dirty_widgets.add(self)
        screen.check_idle()
        return self


STYLED_KEPT = 1024  # styled lines kept per widget (a panel's pictures, a table's rows)


def plain_box(styles: StylesBase, padding: Any, opacity: float) -> bool:
    """Whether a widget draws its lines with nothing but their background: no border,
    outline, padding, hatch, tint, text opacity or opacity (what `StylesCache.render_line`
    would add, given per line)."""
    if opacity != 1.0 or styles.text_opacity != 1.0 or styles.tint.a:
        return False
    if padding is None:
        padding = styles.padding
    if any(padding) or styles.has_rule("hatch"):
        return False
    return not any(edge for edge, _ in styles.border) and not any(
        edge for edge, _ in styles.outline
    )


class StyledLines(StylesCache):
    """A widget's styles cache that keeps each styled line under the line it was made from
    (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self._plain = False
        self._styled: dict[tuple[object, ...], tuple[Strip, Strip]] = {}

    def render(self, styles: StylesBase, *args: Any, **kwargs: Any) -> list[Strip]:
        self._plain = self._plain_box(styles, kwargs.get("padding"), kwargs.get("opacity", 1.0))
        try:
            return super().render(styles, *args, **kwargs)
        finally:
            self._plain = False

    def _plain_box(self, styles: StylesBase, padding: Any, opacity: float) -> bool:
        """Whether each line is styled from itself alone (`plain_box`)."""
        return plain_box(styles, padding, opacity)

    def render_line(self, styles: StylesBase, y: int, *args: Any) -> Strip:
        # (size, content_size, padding, base_background, background, render_content_line,
        # border_title, border_subtitle, opacity, ansi_theme, native_ansi)
        size, content_size, padding, base_background, background, render_content_line = args[:6]
        if not self._plain or y >= content_size.height:
            return super().render_line(styles, y, *args)
        line = render_content_line(y)
        key = (id(line), content_size.width, size.width, padding, base_background, background)
        kept = self._styled.get(key)
        if kept is not None and kept[0] is line:
            return kept[1]
        rest = list(args)
        rest[5] = lambda _y: line  # the line just drawn, not drawn twice
        styled = super().render_line(styles, y, *rest)
        if len(self._styled) >= STYLED_KEPT:
            self._styled.clear()
        self._styled[key] = (line, styled)  # the line kept with it: its id names no other
        return styled


class KeepsStyledLines(_WidgetMixin):
    """A widget whose styles cache is a `StyledLines`. Comes first among the bases."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = StyledLines()


def laid_size(widget: Widget) -> Size:
    """The widget's content size as its last layout gave it (`Widget._size`, set by
    `Widget._size_updated`), without asking the compositor for its region, which may arrange
    the whole screen anew while a frame collects its repaints (`RepaintsChangedRows`)."""
    width, height = widget._size
    gutter = widget.styles.gutter
    return Size(max(0, width - gutter.width), max(0, height - gutter.height))


def selecting(widget: Widget) -> bool:
    """Whether a text selection is being made on the widget's screen (`Screen._selecting`,
    which `Visual.to_strips` reads: a picture is then drawn whole, as Textual draws it)."""
    return bool(widget.screen._selecting)


def line_strips(widget: Widget, line: Content, y: int, width: int, style: Any) -> list[Strip]:
    """The strips of line `y` of a picture drawn by `widget` at `width` in the visual `style`,
    the ones `Visual.to_strips(widget, picture, width, None, style)` gives for that line (see
    the module docstring; the caller makes sure there is no text selection and the picture
    is aligned left and top)."""
    if not width:
        return []
    get_rule = widget.styles.get
    formatted = line._wrap_and_format(
        width,
        align=get_rule("text_align", "left"),  # type: ignore[arg-type]
        overflow=get_rule("text_overflow", "fold"),  # type: ignore[arg-type]
        no_wrap=get_rule("text_wrap", "wrap") == "nowrap",
        line_pad=get_rule("line_pad", 0),  # type: ignore[arg-type]
        tab_size=8,
        get_style=widget._get_style,
    )
    strips = []
    for piece in formatted:
        piece.y = y  # its line's place in the whole picture
        strips.append(Strip(*piece.to_strip(style)))
    if widget.auto_links and not widget.is_container and not selecting(widget):
        link_style = widget.link_style
        strips = [strip._apply_link_style(link_style) for strip in strips]
    return strips


class RepaintsChangedRows(_WidgetMixin):
    """A widget whose whole repaint is narrowed to the rows whose line changed (see the module
    docstring): `_rows_now` gives its rows as they would be drawn now (or None: repaint all),
    `render_line` notes each row it gives (`_note_painted`), and `render_lines` the look the
    rows were styled in. Comes first among the bases. One whose `REPAINTS_CHANGED_ROWS` is
    off repaints as Textual does and notes nothing (a one-line widget gains nothing by it)."""

    _painted: dict[int, Strip]
    _painted_look: tuple[object, ...] | None = None
    REPAINTS_CHANGED_ROWS = True

    def _rows_now(self, size: Size) -> Sequence[Strip] | None:
        """The widget's rows at `size` as they would be drawn now (None: repaint all). Its
        region is not to be asked for here (`Widget.region` may arrange the whole screen
        while the compositor collects the repaints)."""
        return None

    def _note_painted(self, y: int, line: Strip) -> None:
        try:
            self._painted[y] = line
        except AttributeError:
            self._painted = {y: line}

    def _look(self) -> tuple[object, ...]:
        """What the styles cache styles a row with besides the row itself (the visual style,
        which the focus may change, is in the row's strips)."""
        styles = self.styles
        return (
            self.background_colors,
            styles.tint,
            styles.text_opacity,
            self.opacity,
            tuple(self.get_line_filters()),
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        if self.REPAINTS_CHANGED_ROWS:
            self._painted_look = self._look()
        return super().render_lines(crop)

    def _exchange_repaint_regions(self) -> Collection[Region]:
        regions = super()._exchange_repaint_regions()
        if not self.REPAINTS_CHANGED_ROWS:
            return regions
        size = self._size  # its last layout's; no `region` here (see `_rows_now`)
        gutter = self.styles.gutter  # padding or a border at its sides only: a row is a line
        if size.region not in regions or gutter.top or gutter.bottom:
            return regions
        rows = self._rows_now(Size(size.width - gutter.width, size.height))
        painted = getattr(self, "_painted", None)
        if (
            rows is None
            or painted is None
            or len(rows) != size.height
            or self._look() != self._painted_look
        ):
            return regions
        return [
            Region(0, y, size.width, 1) for y, row in enumerate(rows) if painted.get(y) is not row
        ]


class SizedInItsLayout(_WidgetMixin):
    """A widget whose new size comes from a layout that already places what is in it (the
    message line, whose words asked for it; the hub's section stack, whose section in front
    is laid out at it in the same layout): `Widget._size_updated` asks for no layout of its
    own, which Textual would do in a second one. Comes first among the bases."""

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)


# ---- tab14: a whole repaint of what was shown before gives back the lines given then -------
PAGES_KEPT = 8  # pages a widget keeps (a table's first and last page, a bar's two thumbs...)


class KeepsPages(_WidgetMixin):
    """A widget whose whole repaint gives back the very lines it gave before when it shows
    the same page (`_page_key`) in the same place and look (see the module docstring).
    Comes first among the bases."""

    _pages: dict[tuple[object, ...], tuple[list[Strip], dict[int, Strip]]] | None = None

    def _page_key(self) -> object | None:
        """What the widget's lines are drawn from now, all of it (None: nothing kept)."""
        return None

    def render_lines(self, crop: Region) -> list[Strip]:
        key = self._page_key()
        if key is None or not plain_box(self.styles, None, self.opacity):
            return super().render_lines(crop)
        base_background, background = self.background_colors
        seen = (
            key,
            crop,
            self._size,
            base_background,
            background,
            tuple(self.get_line_filters()),
        )
        pages = self._pages
        if pages is None:
            pages = self._pages = {}
        cache = self._styles_cache
        kept = pages.get(seen)
        if kept is None:
            lines = super().render_lines(crop)
            styled = {y: cache._cache[y] for y in crop.line_range if y in cache._cache}
            if len(pages) >= PAGES_KEPT:
                del pages[next(iter(pages))]  # the oldest
            pages[seen] = (lines, styled)
            return list(lines)
        lines, styled = kept
        # the styles cache as the render would leave it: those lines styled, none to draw
        cache._cache.update(styled)
        cache._dirty_lines.difference_update(crop.line_range)
        return list(lines)


INTERNED_KEPT = 256  # distinct lines a scrollbar keeps (a track, a thumb and its two ends)
PICTURES_KEPT = 16  # pictures a scrollbar keeps (its thumb at the top and the bottom...)


class KeptScrollBar(KeepsPages, PaintsDirect, KeepsStyledLines, ScrollBar):
    """A scrollbar whose lines alike are the same `Strip`, and whose pictures drawn before
    come back as the same lines (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._interned: dict[tuple[object, ...], Strip] = {}
        self._pictures: dict[tuple[object, ...], list[Strip]] = {}

    def _render_content(self) -> None:
        """`Widget._render_content`: the lines of the picture (each line alike the same
        strip), those kept for it when it was drawn before."""
        key = self._picture_key()
        lines = self._pictures.get(key) if key is not None else None
        if lines is None:
            super()._render_content()
            lines = [self._intern(line) for line in self._render_cache.lines]
            if key is not None:
                if len(self._pictures) >= PICTURES_KEPT:
                    del self._pictures[next(iter(self._pictures))]  # the oldest
                self._pictures[key] = lines
        self._render_cache = type(self._render_cache)(self.size, lines)
        self._dirty_regions.clear()

    def _page_key(self) -> object | None:
        return self._picture_key()

    def _picture_key(self) -> tuple[object, ...] | None:
        """What the bar's picture is drawn from (`ScrollBar.render`'s renderer and its
        figures, the size and the visual style), or None when it is no `ScrollBarRender`."""
        bar = self.render()
        if type(bar) is not ScrollBarRender:
            return None
        return (
            self.size,
            self.visual_style,
            bar.virtual_size,
            bar.window_size,
            bar.position,
            bar.thickness,
            bar.vertical,
            bar.style,
        )

    def _intern(self, line: Strip) -> Strip:
        key = tuple(line)
        kept = self._interned.get(key)
        if kept is None:
            if len(self._interned) >= INTERNED_KEPT:
                self._interned.clear()
            kept = self._interned[key] = line
        return kept


class KeepsBarLines(_WidgetMixin):
    """A scroll view whose vertical scrollbar is a `KeptScrollBar`: Textual's
    `Widget.vertical_scrollbar`, less the class. Comes first among the bases."""

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is not None:
            return self._vertical_scrollbar
        self._vertical_scrollbar = bar = KeptScrollBar(
            vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
        )
        bar.display = False
        self.app._start_widget(self, bar)
        return bar


class ScrollbarsOnChange(_WidgetMixin):
    """A scroll view (a table) whose scrollbars are updated by a layout only when what they
    show may have changed (see the module docstring). Comes first among the bases."""

    _scrolled_for: tuple[object, ...] | None = None

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        styles = self.styles
        seen = (
            size,
            container_size,
            self.virtual_size,  # its own (the layout's is not what a scroll view scrolls)
            styles.gutter.totals,
            styles.overflow_x,
            styles.overflow_y,
            styles.scrollbar_size_vertical,
            styles.scrollbar_size_horizontal,
            self.show_vertical_scrollbar,
            self.show_horizontal_scrollbar,
        )
        if seen == self._scrolled_for and self._size == size:
            return self._container_size != container_size  # what Textual would answer
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        # kept only when the scrollbars settled (Textual's `_scrollbar_changes` otherwise
        # steers the next update, which must run)
        self._scrolled_for = None if self._scrollbar_changes else seen
        return resized


def unsettled_app(app: App[Any]) -> bool:
    """Whether the app still has work to do before its picture is final: messages waiting,
    a layout, scroll or repaint asked for (the second frame Textual asks for itself); what
    the zygote's template (template.py) waits out before it holds."""
    screen: Any = app.screen
    return bool(
        not app._message_queue.empty()
        or not screen._message_queue.empty()
        or screen._layout_required
        or screen._scroll_required
        or screen._repaint_required
        or screen._dirty_widgets
        or unsettled(screen)
    )


# ---- dw14: the day report hides the hub ------------------------------------------------------
class HidesScreensBehind(_ScreenMixin):
    """A screen whose opaque background hides the screens behind it, which are then none of
    Textual's frame work while it is in front (`screens_behind`, `MacApp._background_screens`).

    Textual counts the screen under the one in front as showing through it whatever the
    front one's background (`App._background_screens` looks at the opacity of the screens
    behind, not of the one in front), so the screen behind stays current
    (`Screen.is_current`): its widgets' repaints and layouts run on its own update timer and
    are handed to the screen in front (`Screen._compositor_refresh` refreshes those regions of
    it), which paints them again, the very cells it showed, in a frame of its own. The day
    report is opaque (`Screen { background: $background; }`, app.tcss): the hub under it shows
    nothing, yet each day's hub redraw under it was laid out, painted and handed on. Behind a
    `HidesScreensBehind` screen with an opaque background there is no screen in Textual's
    eyes: the one behind keeps what its widgets ask for (its dirty widgets, a layout) until it
    is in front again, when Textual lays it out for a new size and repaints it whole
    (`Screen._on_screen_resume`, `Screen._on_idle`). What the screen in front draws is the same:
    an opaque background draws no screen behind it (`Screen.render`)."""


def screens_behind(app: App[Any], screens: list[Screen[Any]]) -> list[Screen[Any]]:
    """`App._background_screens` (Textual's answer, `screens`): none while a
    `HidesScreensBehind` screen with an opaque background is in front."""
    stack = app._screen_stack
    front = stack[-1] if stack else None
    if isinstance(front, HidesScreensBehind) and front.styles.background.a == 1:
        return []
    return screens


def warm_lines(screen: Screen[Any]) -> None:
    """Draw the widgets of `screen`, hidden behind a `HidesScreensBehind` screen, as its next
    frame will (`Compositor._get_renders`: each visible widget's visible part), so that frame
    finds their lines in their styles caches (`StylesCache.render_widget` keeps each line
    until the widget changes). The hub under the day report, redrawn after the report's frame
    (its status line, message line, section), is so drawn in that pause and not by the Esc
    that brings it back (0.9 ms of its frame). Nothing when a layout is due (the lines would
    be drawn at sizes about to change) or the screen is in sight."""
    if screen.is_current or screen._layout_required:
        return
    visible = screen._compositor.visible_widgets
    if any(widget._layout_required for widget in visible):
        return
    for widget, (region, clip) in visible.items():
        if widget is screen:
            continue  # its background: one line, repeated (`UniformLines`)
        x, y, width, height = region.intersection(clip)
        if width and height:
            widget.render_lines(Region(x - region.x, y - region.y, width, height))


class BindingsWhenShown(_ScreenMixin):
    """A screen that tells its footer of a push or pop of the screen stack only while it is
    in sight. Textual refreshes a screen's bindings whenever it is suspended or resumed
    (`Screen._watch_stack_updates`), and the hub's footer then reads every key's legality
    for the new state (`GameFooter`, some 0.4 ms: the roster asks the engine for each frame's
    repair), though under the day report (`HidesScreensBehind`) nothing of it shows. Out of
    sight it is not told; back in sight it is, as ever (the day report has its keys read in
    the pause after its frame, `dayreport.DayReportScreen.draw_behind`)."""

    def _watch_stack_updates(self) -> None:
        if self.is_current:
            super()._watch_stack_updates()  # type: ignore[no-untyped-call]


RELIES_ON["HidesScreensBehind, screens_behind, warm_lines, BindingsWhenShown (dw14)"] = (
    "textual.screen:Screen._watch_stack_updates",
    "textual.app:App._background_screens",
    "textual._compositor:Compositor._get_renders",
    "textual._compositor:Compositor.visible_widgets",
    "textual._styles_cache:StylesCache.render_widget",
    "textual.screen:Screen.is_current",
    "textual.screen:Screen._compositor_refresh",
    "textual.screen:Screen._on_screen_resume",
    "textual.screen:Screen._on_idle",
    "textual.screen:Screen.render",
)


# ---- tab14: the tables' kept lines through a view switch and a new height ------------------
def kept_styled_lines(widget: Widget) -> tuple[dict[int, Strip], set[int]]:
    """The lines `widget`'s styles cache holds and the ones it has to draw again (a copy)."""
    cache = widget._styles_cache
    return dict(cache._cache), set(cache._dirty_lines)


def put_back_styled_lines(
    widget: Widget, kept: tuple[dict[int, Strip], set[int]], below: int | None = None
) -> None:
    """Put the lines `kept_styled_lines` took back in `widget`'s styles cache (those above
    line `below` only, if given), as they were then."""
    lines, dirty = kept
    cache = widget._styles_cache
    if below is not None:
        lines = {y: line for y, line in lines.items() if y < below}
        dirty = {y for y in dirty if y < below} | {y for y in cache._dirty_lines if y >= below}
        lines.update((y, line) for y, line in cache._cache.items() if y >= below)
    cache._cache.clear()
    cache._cache.update(lines)
    cache._dirty_lines.clear()
    cache._dirty_lines.update(dirty)


def place_keeping_lines(container: ParksChildren, child: Widget, displayed: bool) -> None:
    """`container.place(child, displayed)`, the child's styled lines kept (see the module
    docstring: `place_keeping_lines`)."""
    kept = kept_styled_lines(child)
    container.place(child, displayed)
    put_back_styled_lines(child, kept)


class KeepsLinesOnNewHeight(_WidgetMixin):
    """A widget whose styled lines above its old bottom are kept when a layout gives it only
    another height (see the module docstring). Comes first among the bases."""

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        old = self._size
        if (
            not old
            or old == size
            or old.width != size.width
            or not plain_box(self.styles, None, self.opacity)
        ):
            return super()._size_updated(size, virtual_size, container_size, layout)
        before = self._height_look()
        kept = kept_styled_lines(self)
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        if self._height_look() == before:
            put_back_styled_lines(self, kept, below=min(old.height, size.height))
        return resized

    def _height_look(self) -> tuple[object, ...]:
        """What a line's picture may follow besides the widget's height: where it is
        scrolled to, its scrollbars and gutter."""
        return (
            self.scroll_offset,
            self.show_vertical_scrollbar,
            self.show_horizontal_scrollbar,
            self.styles.gutter,
        )


# ---- tab14: lines padded left and right kept as the plain ones ------------------------------
def padded_box(styles: StylesBase, padding: Any, opacity: float) -> bool:
    """Whether a widget draws its lines with nothing but their background and a padding at
    their left and right (`plain_box` but for that padding): each styled line is then made
    from the line alone (`StylesCache.render_line`: `line_pad` with the inner background)."""
    if padding is None:
        padding = styles.padding
    top, _right, bottom, _left = padding
    return not top and not bottom and plain_box(styles, NO_PADDING, opacity)


NO_PADDING = Spacing(0, 0, 0, 0)


class StyledPaddedLines(StyledLines):
    """`StyledLines` that keeps the lines of a widget padded at their left and right too
    (`padded_box`; the padding is in the key of each)."""

    def _plain_box(self, styles: StylesBase, padding: Any, opacity: float) -> bool:
        return padded_box(styles, padding, opacity)


class KeepsPaddedLines(_WidgetMixin):
    """A widget whose styles cache is a `StyledPaddedLines` (see the module docstring).
    Comes first among the bases, before `KeepsStyledLines`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = StyledPaddedLines()


# ---- tab14: a message the widget has no handler for, handed to its parent at once -----------
_HANDLES: dict[tuple[type[MessagePump], type[Message]], bool] = {}


def handles(cls: type[MessagePump], message: type[Message]) -> bool:
    """Whether a message pump of class `cls` has a handler of its own for `message` (by name
    or decorated, as `MessagePump._get_dispatch_methods` looks for them; once per class)."""
    known = _HANDLES.get((cls, message))
    if known is None:
        known = _HANDLES[(cls, message)] = _looks_for(cls, message)
    return known


def _looks_for(cls: type[MessagePump], message: type[Message]) -> bool:
    name = message.handler_name
    for klass in cls.__mro__:
        found = klass.__dict__.get(f"_{name}") or klass.__dict__.get(name)
        decorated = klass.__dict__.get("_decorated_handlers") or {}
        if found is not None or any(issubclass(message, m) for m in decorated):
            return True
    return False


class BubblesAtOnce(_WidgetMixin):
    """A widget that hands the messages of `BUBBLES_AT_ONCE` it posts to itself, which it has
    no handler for, to its parent at once (see the module docstring). Comes first among the
    bases."""

    BUBBLES_AT_ONCE: tuple[type[Message], ...] = ()

    def post_message(self, message: Message) -> bool:
        kind = type(message)
        if (
            kind not in self.BUBBLES_AT_ONCE
            or handles(type(self), kind)
            or message_hook_context_var.get(None) is not None
            or self.message_signal._subscriptions
            or message.no_dispatch
            or not message.bubble
            or self._closing
            or self._closed
            or not self.check_message_enabled(message)
        ):
            return super().post_message(message)
        # `MessagePump.post_message`, then what its dispatch would do: no handler, so
        # `MessagePump._on_message` bubbles it to the parent
        message._prevent.update(self._get_prevented_messages())
        parent = self._parent
        if parent is None or message._stop_propagation:
            return True
        if message._sender is not None and message._sender == parent:
            message.stop()  # the parent sent it: it stops there
        if self.is_parent_active and self.is_attached:
            message._bubble_to(parent)
        return True


# ---- map14b: a screen's full frame drawn ahead while another covers it ----------------------
class KeepsFullFrame(_ScreenMixin):
    """A screen whose full frame is drawn in a pause while another screen covers it, and
    handed to the terminal as it comes back when nothing of it changed meanwhile (see the
    module docstring). Comes first among the bases."""

    _kept_frame: tuple[Size, LayoutUpdate] | None = None

    def keep_full_frame(self) -> None:
        """Draw the screen's full frame now, as `Compositor.render_full_update` draws it
        (covered by another screen, in a pause: nothing asked for a layout, it is laid out at
        the app's size); its next frame, a full one as it comes back, is that."""
        app = self.app
        compositor = self._compositor
        if (
            self is app.screen
            or not self.is_attached
            or app.is_inline
            or self._layout_required
            or compositor.size != app.size
            or self not in compositor
        ):
            return
        region = compositor.size.region
        chops = compositor._render_chops(region, lambda y: True)
        frame = LayoutUpdate([list(chop.values()) for chop in chops], region)
        self._kept_frame = (compositor.size, frame)
        # What was waiting to be painted is in it (each widget drawn as it is now); a widget
        # asking for a repaint from now on is one the frame may not show.
        self._dirty_widgets.clear()
        compositor._dirty_regions.clear()

    def _forget_frame(self) -> None:
        self._kept_frame = None

    async def _on_update(self, message: Any) -> None:
        """A widget of the screen asked for a repaint (`Screen._on_update`, next, takes it)."""
        self._forget_frame()

    async def _on_layout(self, message: Any) -> None:
        """... or for a new layout (`Screen._on_layout`, next, takes it)."""
        self._forget_frame()

    def _refresh_layout(self, *args: Any, **kwargs: Any) -> None:
        self._forget_frame()
        super()._refresh_layout(*args, **kwargs)

    def _on_timer_update(self) -> None:
        # in front, a repaint handed to the screen at once (`PaintsDirect`), which Textual
        # forgets as the screen repaints whole (covered, a repaint comes as a message)
        if self is self.app.screen and self._dirty_widgets - {self}:
            self._forget_frame()
        super()._on_timer_update()

    def _compositor_refresh(self) -> None:
        app = self.app
        if self is not app.screen:  # covered: its repaint is handed on to the one in front
            super()._compositor_refresh()
            return
        kept, self._kept_frame = self._kept_frame, None
        compositor = self._compositor
        if (
            kept is None
            or app.is_inline
            or kept[0] != compositor.size
            or compositor.size != app.size
            or compositor.size.region not in compositor._dirty_regions
            or any(
                widget._repaint_required and widget.display for widget in compositor.visible_widgets
            )
        ):
            super()._compositor_refresh()
            return
        # What `Screen._compositor_refresh` does with a full update (`render_update`).
        compositor._dirty_regions.clear()
        app._display(self, kept[1])
        self._dirty_widgets.clear()
        app._update_mouse_over(self)


# ---- ps15: a container's arrangement kept by what its children's places follow -----------------
ARRANGEMENTS_KEPT = 8  # arrangements a container keeps (a detail pane's two or three heights)


class KeepsArrangements(_WidgetMixin):
    """A container whose arrangement of its children (`Widget.arrange`) is kept by what
    their places follow, not only until a child asks for a layout.

    Textual keeps a container's arrangement by its size and its children's count
    (`Widget.arrange`), and throws it away whenever a child asks for a layout
    (`Widget._check_refresh` -> `Widget._clear_arrangement_cache`): a hub section whose
    detail pane took another number of lines (the pilots' Home and End at 80x24, a cursor
    key onto a pilot of another kind) had its table and pane arranged anew (the layout's box
    models and `Fraction`s: 0.1-0.15 ms of the key's 3.4), for the two or three arrangements
    it takes in turn. Here the arrangements are kept by the size, the viewport, the
    children's count and, for each child, whether it is displayed, its styles
    (`Styles._cache_key`: any style changed) and, for a child whose width or height follows
    its content (auto), the very picture it shows (`Static.visual`, by its id, the picture
    kept alive with the arrangement: the layout measures it); a container with an auto-sized
    child of another kind arranges as Textual does. `tests/test_tui_table_keys.py` checks the
    screen's map after each table key against the one Textual's layout builds with every
    arrangement made afresh. Comes first among the bases."""

    _arrangements: dict[tuple[object, ...], tuple[DockArrangeResult, list[object]]] | None = None

    def _arrangement_key(
        self, size: Size, optimal: bool
    ) -> tuple[tuple[object, ...], list[object]] | None:
        """The key of the arrangement at `size`, and the pictures it names by their id (kept
        with the arrangement: alive, their ids name no other picture meanwhile); None when a
        child's size follows something else than a picture."""
        children: list[object] = []
        pictures: list[object] = []
        for child in self._nodes:
            styles = child.styles
            picture = None
            if styles.is_auto_width or styles.is_auto_height:
                if not isinstance(child, Static):
                    return None
                pictures.append(child.visual)
                picture = id(child.visual)
            children.append((child, child.display, styles._cache_key, picture))
        key = (size, optimal, self.screen.size, self._nodes._updates, tuple(children))
        return key, pictures

    def arrange(self, size: Size, optimal: bool = False) -> DockArrangeResult:
        keyed = self._arrangement_key(size, optimal)
        if keyed is None:
            return super().arrange(size, optimal)
        key, pictures = keyed
        kept = self._arrangements
        if kept is None:
            kept = self._arrangements = {}
        found = kept.get(key)
        if found is None:
            found = (super().arrange(size, optimal), pictures)
            if len(kept) >= ARRANGEMENTS_KEPT:
                del kept[next(iter(kept))]  # the oldest
            kept[key] = found
        return found[0]


RELIES_ON["KeepsArrangements (ps15)"] = (
    "textual.widget:Widget.arrange",
    "textual.widget:Widget._check_refresh",
    "textual.widget:Widget._clear_arrangement_cache",
    "textual.widget:Widget._get_box_model",
    "textual._arrange:arrange",
    "textual.layouts.vertical:VerticalLayout.arrange",
    "textual.css.styles:RenderStyles._cache_key",
    "textual.widgets._static:Static.visual",
)


# ---- lp15: a partial frame's cursor moves encoded once per place ----------------------------
_MOVES: dict[tuple[int, int], str] = {}
MOVES_KEPT = 16384  # cursor moves kept (a 120x40 screen has 4,800 places)


def move_to(x: int, y: int) -> str:
    """`Control.move_to(x, y).segment.text`, the terminal's cursor move to column `x`, row
    `y`, worked out once per place (Rich builds a `Control` and its `Segment` for each)."""
    found = _MOVES.get((x, y))
    if found is None:
        if len(_MOVES) >= MOVES_KEPT:
            _MOVES.clear()
        found = _MOVES[(x, y)] = Control.move_to(x, y).segment.text
    return found


class MovesKept(ChopsUpdate):
    """Textual's `ChopsUpdate` (what `SpanCompositor` hands the terminal) whose encoding
    (`render_segments`, the same string) takes its cursor moves from `move_to`: a section
    key at 120x40 writes some 65 pieces of lines, each after a move that Rich builds anew
    (a `Control`, a `Segment`, 0.04 ms of the key)."""

    def render_segments(self, console: Console) -> str:
        # `ChopsUpdate.render_segments`, with `move_to` (lp15)
        sequences: list[str] = []
        append = sequences.append
        chops = self.chops
        chop_ends = self.chop_ends
        last_y = self.spans[-1][0]
        for y, x1, x2 in self.spans:
            line = chops[y]
            ends = chop_ends[y]
            for end, (x, strip) in zip(ends, line.items(), strict=False):
                if strip is None:
                    continue
                if x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)  # the part the span covers
                append(move_to(x, y))
                append(strip.render(console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


RELIES_ON["MovesKept, move_to (lp15)"] = (
    "textual._compositor:ChopsUpdate.render_segments",
    "textual._compositor:ChopsUpdate.__init__",
)


# ---- dw15: a full frame gives again the rows drawn from the same lines as the last one --------
FrameRow = tuple[tuple[object, ...], list[Strip], list[Strip]]  # (its places, chops, its lines)


class KeepsFrameRows(Compositor):
    """A compositor whose full update gives again each row of its last full update that is
    made of the very same lines, at the same places and under the same cuts (the day report:
    its background, border and title rows; only the rows of its new text are cut anew).

    Textual's full update (`Compositor.render_full_update`) draws every visible widget
    (`Compositor._get_renders`, each from its styles cache when nothing of it changed: the same
    `Strip` objects), then cuts each row's lines at the row's cuts (`Strip.divide`, new strips)
    and fills the row front to back, the first strip for a cut winning (`_render_chops`); the
    terminal's bytes are each chop's `Strip.render`, kept in the strip, so new chops are
    encoded anew. A day report pushed again thus cut and encoded its 24 or 40 rows, though all
    but its text's were the rows of its last frame. Here a row whose parts (each widget line's
    place, columns and the line itself, the same object or equal segments: a screen's
    background line is drawn anew each time it is refreshed whole) and cuts are the last
    full update's is that update's row again (the same chops, their bytes kept); any other is cut
    as `_render_chops` cuts it. The bytes written are Textual's (a test compares them with
    `Compositor.render_full_update`'s), its cursor moves made once per place (`LayoutMovesKept`)."""

    _kept_rows: list[FrameRow] | None = None

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        if simplify:  # an SVG export: Textual's own
            self._kept_rows = None
            return super().render_full_update(simplify)
        screen_region = self.size.region
        self._dirty_regions.clear()
        cuts = self.cuts
        parts: list[list[tuple[int, int, int, Strip]]] = [[] for _ in cuts]
        for region, clip, strips in self._get_renders(screen_region):  # front to back
            render_region = region.intersection(clip)
            x = render_region.x
            first_cut, last_cut = render_region.column_span
            for y, strip in zip(render_region.line_range, strips, strict=False):
                parts[y].append((x, first_cut, last_cut, strip))
        kept = self._kept_rows or []
        rows: list[FrameRow] = []
        for y, row in enumerate(parts):
            key = (tuple(cuts[y]), tuple((x, a, b) for x, a, b, _line in row))
            lines = [line for *_, line in row]
            last = kept[y] if y < len(kept) else None
            if (
                last is not None
                and last[0] == key
                and all(old is new or old == new for old, new in zip(last[2], lines, strict=True))
            ):
                rows.append(last)
                continue
            chops_line: dict[int, Strip | None] = dict.fromkeys(cuts[y][:-1])
            get = chops_line.get
            for x, first_cut, last_cut, line in row:
                final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
                pieces = line.divide([cut - x for cut in final_cuts[1:]])
                for cut, piece in zip(final_cuts, pieces, strict=False):
                    if get(cut) is None:
                        chops_line[cut] = piece
            rows.append((key, cast("list[Strip]", list(chops_line.values())), lines))
        self._kept_rows = rows
        return LayoutMovesKept([row[1] for row in rows], screen_region)


class LayoutMovesKept(LayoutUpdate):
    """Textual's `LayoutUpdate` (a full update) whose encoding (`render_segments`, the same
    string) takes its cursor moves from `move_to` (lp15's, for `ChopsUpdate`): one per row,
    which Rich builds anew each time (40 at 120x40)."""

    def render_segments(self, console: Console) -> str:
        # `LayoutUpdate.render_segments`, with `move_to`
        sequences: list[str] = []
        append = sequences.append
        x = self.region.x
        last = len(self.strips) - 1
        for index, line in enumerate(self.strips):
            append(move_to(x, self.region.y + index))
            sequences.extend([strip.render(console) for strip in line])
            if index != last:
                append("\n")
        return "".join(sequences)


class KeepsFrameRowsScreen(_ScreenMixin):
    """A screen whose compositor is a `KeepsFrameRows`. Comes first among the bases."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._compositor = KeepsFrameRows()


RELIES_ON["KeepsFrameRows, KeepsFrameRowsScreen (dw15)"] = (
    "textual._compositor:Compositor.render_full_update",
    "textual._compositor:Compositor._render_chops",
    "textual._compositor:Compositor._get_renders",
    "textual._compositor:Compositor.cuts",
    "textual._compositor:LayoutUpdate.render_segments",
    "textual.strip:Strip.divide",
    "textual.strip:Strip.render",
    "textual.screen:Screen.__init__",
)
