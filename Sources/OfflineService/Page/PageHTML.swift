/// The web page's HTML: the add form and the list the script fills from `/api/events`.
enum PageHTML {
  static let text = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>offline serve</title>
    <link rel="stylesheet" href="/app.css">
    <script src="/app.js" defer></script>
    </head>
    <body>
    <header><h1>offline</h1><span id="connection" class="connection">connecting…</span></header>
    <main>
    <form id="add-form" class="add">
      <input id="add-url" name="url" type="url" required placeholder="https://example.com/movie.mp4 or …/master.m3u8" aria-label="URL to add">
      <input id="add-title" name="title" type="text" placeholder="Title (optional)" aria-label="Title">
      <details>
        <summary>Stream options</summary>
        <label>Variant <input id="add-variant" name="variant" type="text" placeholder="highest, lowest or 800k"></label>
        <label>Audio <input id="add-audio" name="audio" type="text" placeholder="default, all or en,fr"></label>
        <label>Subtitles <input id="add-subtitles" name="subtitles" type="text" placeholder="none, all or en"></label>
      </details>
      <button id="add-button" type="submit">Add</button>
      <p id="add-message" class="message" role="status"></p>
    </form>
    <p id="empty" class="empty">Nothing here yet: add a URL above.</p>
    <ul id="contents" class="contents"></ul>
    </main>
    </body>
    </html>
    """
}
