/// The web page's style sheet.
enum PageStyle {
  static let text = """
    :root { color-scheme: light dark; --accent: #2f6fde; --muted: #777; }
    body { font: 15px/1.45 system-ui, sans-serif; margin: 0; }
    header { display: flex; align-items: baseline; gap: 1em; padding: .6em 1.2em;
      border-bottom: 1px solid #8884; }
    h1 { font-size: 1.3em; margin: 0; }
    .connection { color: var(--muted); font-size: .85em; }
    main { max-width: 60em; margin: 0 auto; padding: 1em 1.2em; }
    .add { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin-bottom: 1.2em; }
    .add input[type=url] { flex: 3 1 22em; }
    .add input[type=text] { flex: 1 1 10em; }
    .add details { flex-basis: 100%; color: var(--muted); }
    .add details label { margin-right: 1em; }
    input, button { font: inherit; padding: .35em .6em; }
    button { cursor: pointer; border: 1px solid #8886; border-radius: 4px; background: #8881; }
    button.primary, .add button { background: var(--accent); color: white; border-color: var(--accent); }
    .message { flex-basis: 100%; margin: 0; color: #c33; min-height: 1.2em; font-size: .9em; }
    .empty { color: var(--muted); }
    .contents { list-style: none; padding: 0; margin: 0; }
    .content { border: 1px solid #8884; border-radius: 6px; padding: .7em .9em; margin-bottom: .8em; }
    .content .top { display: flex; justify-content: space-between; gap: 1em; }
    .content .title { font-weight: 600; overflow-wrap: anywhere; }
    .content .url { color: var(--muted); font-size: .85em; overflow-wrap: anywhere; }
    .content .state { font-size: .85em; padding: .05em .5em; border-radius: 1em; background: #8882;
      white-space: nowrap; height: fit-content; }
    .content[data-state=downloaded] .state { background: #2a2; color: white; }
    .content[data-state=suspended] .state { background: #d90; color: white; }
    .content progress { width: 100%; height: .8em; margin: .5em 0 .2em; }
    .content .numbers { display: flex; gap: 1.2em; font-size: .85em; color: var(--muted); }
    .content .error { color: #c33; font-size: .85em; margin: .3em 0 0; }
    .content .actions { display: flex; gap: .5em; margin-top: .5em; }
    .content video { display: block; width: 100%; max-height: 22em; margin-top: .6em; background: black; }
    .content .play-link { display: inline-block; margin-top: .5em; font-size: .9em; }
    """
}
