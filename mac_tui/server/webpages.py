"""The web server's two pages: the login form, and the game's terminal (textual-serve's
xterm.js page, with its fonts served from here and a few lines that show why the server closed
the game). Jinja2 templates, rendered with autoescape."""

TITLE = "Mechanized Armour Commander"

STYLE = """
      body { background: #0c181f; margin: 0; color: rgba(255, 255, 255, 0.95);
        font-family: "Roboto Mono", menlo, monospace; }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ static }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
      }
      .dialog-container {
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }
      .shade { position: absolute; width: 100%; height: 100%; background: #0c181f; }
      .intro {
        width: 640px; min-height: 160px; font-size: 16px; z-index: 20; text-align: center;
        background-color: #12232d; display: flex; flex-direction: column;
        align-items: center; justify-content: center; margin: 32px; padding: 16px;
      }
      button, input {
        padding: 12px 24px; font-family: "Roboto Mono", menlo, monospace; margin: 8px;
        font-size: 16px;
      }
      button { background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95); border: none; }
      button:hover { background: #ac5af4; cursor: pointer; }
      .problem { color: #ffb86c; }
      .note { font-size: 13px; opacity: 0.8; max-width: 560px; }
"""

LOGIN_PAGE = (
    """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>{{ title }}</title>
    <style>"""
    + STYLE
    + """</style>
  </head>
  <body>
    <div class="dialog-container">
      <form class="intro" method="post" action="{{ origin }}/login">
        <div>{{ title }}</div>
        {% if problem %}<p class="problem">{{ problem }}</p>{% endif %}
        <input name="name" placeholder="player name" value="{{ name }}" maxlength="32"
          autocomplete="username" required autofocus />
        <input name="password" type="password" placeholder="password" maxlength="256"
          autocomplete="current-password" required />
        <button type="submit">Play</button>
        <p class="note">A new name is registered with the password you give it (8 or more
          characters): your campaigns are yours alone. Names: 1-32 letters, digits, - or _.</p>
      </form>
    </div>
  </body>
</html>
"""
)

GAME_PAGE = (
    """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>{{ title }}</title>
    <link rel="stylesheet" href="{{ static }}css/xterm.css" />
    <link rel="preload" href="{{ static }}fonts/RobotoMono-VariableFont_wght.ttf" as="font"
      type="font/ttf" crossorigin />
    <script>
      // The server says why it closed the game (idle, another page, shutting down).
      (() => {
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) {
            super(...args);
            this.addEventListener("close", (event) => {
              const shown = document.querySelector(".closed-dialog .message");
              if (event.reason && shown) shown.textContent = event.reason;
            });
          }
        };
      })();
    </script>
    <script src="{{ static }}js/textual.js"></script>
    <style>"""
    + STYLE
    + """
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ static }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
        font-style: italic;
      }
      body.-first-byte .intro-dialog { display: none; }
      body .textual-terminal { opacity: 0; transition: opacity 0.3s ease-out; }
      body.-first-byte .textual-terminal { opacity: 1; }
      #terminal { width: 100vw; height: 100vh; }
      .closed-dialog { display: none; }
      body.-closed .closed-dialog { display: flex; }
      #start { display: none; }
      #start.-delay { display: block; }
    </style>
    <script>
      function restart() {
        const params = new URLSearchParams(window.location.search);
        params.delete("delay");
        window.location.href = window.location.pathname + "?" + params.toString();
      }
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div>{{ title }}</div>
        <div>starting {{ player }}'s game...</div>
        <button type="button" onclick="restart()" id="start">Start</button>
      </div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div class="message">The game has ended (it is saved: Continue resumes it).</div>
        <div>
          <button type="button" onclick="restart()">Play again</button>
          <form method="post" action="{{ origin }}/logout" style="display: inline">
            <button type="submit">Log out {{ player }}</button>
          </form>
        </div>
      </div>
    </div>
    <div id="terminal" class="textual-terminal"
      data-session-websocket-url="{{ websocket }}" data-font-size="{{ font_size }}"></div>
  </body>
</html>
"""
)
