/// The web page's script: renders every content from `/api/events` (no reloading), offers
/// buttons only for the actions the state table allows (the `actions` each content event
/// carries), adds URLs, and plays files in a `<video>` element: downloaded ones, and those
/// on their way (MP4, WebM, ...), which the service reads through as they download.
///
/// Text from the server is only ever set as `textContent`, never parsed as HTML.
enum PageScript {
  static let text = #"""
    "use strict";
    const contents = new Map();
    const labels = { pause: "Pause", resume: "Resume", cancel: "Cancel", delete: "Delete file",
      download: "Download", forget: "Forget" };
    const playable = /\.(mp4|m4v|webm|mp3|m4a|ogg|ogv|mov)$/i;

    function el(tag, className, text) {
      const node = document.createElement(tag);
      if (className) node.className = className;
      if (text !== undefined) node.textContent = text;
      return node;
    }

    function size(bytes) {
      if (bytes === null || bytes === undefined) return "?";
      // Powers of 1024, named as the CLI names them (curl and aria2 do the same).
      const units = ["B", "KiB", "MiB", "GiB", "TiB"];
      let value = bytes, unit = 0;
      while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
      return (unit === 0 ? value : value.toFixed(1)) + " " + units[unit];
    }

    function duration(seconds) {
      if (seconds === null || seconds === undefined || !isFinite(seconds)) return "";
      seconds = Math.round(seconds);
      if (seconds < 60) return seconds + " s left";
      const minutes = Math.floor(seconds / 60);
      if (minutes < 60) return minutes + " min " + (seconds % 60) + " s left";
      return Math.floor(minutes / 60) + " h " + (minutes % 60) + " min left";
    }

    function row(id) {
      let node = document.querySelector(`li[data-id="${CSS.escape(id)}"]`);
      if (node) return node;
      node = el("li", "content");
      node.dataset.id = id;
      const top = el("div", "top");
      const names = el("div");
      names.append(el("div", "title"), el("div", "url"));
      top.append(names, el("span", "state"));
      const bar = el("progress");
      bar.max = 100;
      bar.value = 0;
      const numbers = el("div", "numbers");
      numbers.append(el("span", "percent"), el("span", "bytes"), el("span", "speed"),
        el("span", "left"), el("span", "reason"));
      node.append(top, bar, numbers, el("p", "error"), el("div", "actions"), el("div", "player"));
      document.getElementById("contents").append(node);
      return node;
    }

    // Without a total, a download that moves gets a bar that says so (no value); one that
    // does not move (paused, not started) an empty bar, not one that looks part-filled.
    function setProgress(node, bytes, total, speed, left, moving = true) {
      const fraction = total ? Math.min(1, bytes / total) : null;
      const bar = node.querySelector("progress");
      if (fraction !== null) bar.value = Math.round(fraction * 1000) / 10;
      else if (moving && bytes > 0) bar.removeAttribute("value");
      else bar.value = 0;
      node.querySelector(".percent").textContent = fraction === null ? "" : Math.floor(fraction * 100) + " %";
      node.querySelector(".bytes").textContent = size(bytes) + " of " + size(total);
      node.querySelector(".speed").textContent = speed ? size(speed) + "/s" : "";
      node.querySelector(".left").textContent = duration(left);
    }

    function render(content) {
      contents.set(content.id, content);
      const node = row(content.id);
      node.dataset.state = content.state;
      node.querySelector(".title").textContent = content.title || content.url.split("/").pop() || content.url;
      node.querySelector(".url").textContent = content.url;
      node.querySelector(".state").textContent = content.state;
      const done = content.state === "downloaded";
      setProgress(node, done ? (content.total || content.bytes) : content.bytes,
        done ? (content.total || content.bytes) : content.total, 0, null,
        content.state === "downloading");
      node.querySelector(".reason").textContent =
        content.state === "downloading" && content.waitReason ? "waiting: " + content.waitReason : "";
      node.querySelector(".error").textContent = content.lastError || "";
      // Buttons are rebuilt only when the allowed actions change: a button replaced by an
      // event that changed nothing would swallow the click a user was making.
      const actions = node.querySelector(".actions");
      const allowed = content.actions.join(",");
      if (actions.dataset.allowed !== allowed) {
        actions.dataset.allowed = allowed;
        actions.replaceChildren(...content.actions.map((action) => {
          const button = el("button", "", labels[action] || action);
          button.dataset.action = action;
          button.addEventListener("click", () => act(content.id, action));
          return button;
        }));
      }
      // Downloaded, or a file on its way: the service reads that one through, so the video
      // plays what is on disk and what it asks for next comes first.
      const player = node.querySelector(".player");
      const onItsWay = (content.state === "downloading" || content.state === "suspended")
        && content.contentPath && playable.test(content.contentPath);
      if ((done || onItsWay) && content.contentPath) {
        if (!player.querySelector("video, a")) {
          if (playable.test(content.contentPath)) {
            const video = el("video");
            video.controls = true;
            video.preload = "metadata";
            video.src = content.contentPath;
            player.append(video);
          } else {
            const link = el("a", "play-link", "Open in a player: " + location.origin + content.contentPath);
            link.href = content.contentPath;
            player.append(link);
          }
        }
      } else {
        player.replaceChildren();
      }
      document.getElementById("empty").hidden = contents.size > 0;
    }

    // The event stream is the truth: a call's reply describes the content when the call
    // was made, and is drawn only if no event about it came meanwhile (a resume of a file
    // already on disk is downloaded before its reply arrives; drawn after that event, the
    // reply left the page saying downloading).
    const heard = new Map();
    async function act(id, action) {
      const before = heard.get(id) || 0;
      const reply = await fetch(`/api/contents/${encodeURIComponent(id)}/${action}`,
        { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      const body = await reply.json().catch(() => ({}));
      if (reply.ok && body.id && !body.forgotten) {
        if ((heard.get(id) || 0) === before) render(body);
      } else if (!reply.ok) message(body.error || reply.statusText);
    }

    function message(text) {
      document.getElementById("add-message").textContent = text || "";
    }

    document.getElementById("add-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const value = (name) => document.getElementById(name).value.trim();
      const request = { urls: [value("add-url")] };
      for (const [field, name] of [["title", "add-title"], ["variant", "add-variant"],
        ["audio", "add-audio"], ["subtitles", "add-subtitles"]]) {
        if (value(name)) request[field] = value(name);
      }
      const reply = await fetch("/api/contents",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) });
      const body = await reply.json().catch(() => ({}));
      if (!reply.ok) { message(body.error || reply.statusText); return; }
      message("");
      document.getElementById("add-url").value = "";
      body.forEach(render);
    });

    const events = new EventSource("/api/events");
    const connection = document.getElementById("connection");
    events.onopen = () => { connection.textContent = "live"; };
    events.onerror = () => { connection.textContent = "reconnecting…"; };
    events.addEventListener("content", (event) => {
      const data = JSON.parse(event.data);
      heard.set(data.id, (heard.get(data.id) || 0) + 1);
      render(data);
    });
    events.addEventListener("progress", (event) => {
      const data = JSON.parse(event.data);
      const content = contents.get(data.id);
      if (!content || content.state !== "downloading") return;
      content.bytes = data.bytes;
      content.total = data.total;
      setProgress(row(data.id), data.bytes, data.total, data.bytesPerSecond, data.secondsRemaining);
    });
    events.addEventListener("forgotten", (event) => {
      const data = JSON.parse(event.data);
      contents.delete(data.id);
      row(data.id).remove();
      document.getElementById("empty").hidden = contents.size > 0;
    });
    """#
}
