import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown, sanitizeHtml } from './sanitize';

/** The sanitised HTML as live DOM, so tests inspect what a page would actually hold. */
function dom(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  document.body.append(host);
  return host;
}

/** Every attribute on every element, as `tag[name=value]`. */
function attributes(host: HTMLElement): string[] {
  return Array.from(host.querySelectorAll('*')).flatMap((el) =>
    Array.from(el.attributes).map((a) => `${el.tagName.toLowerCase()}[${a.name}=${a.value}]`),
  );
}

afterEach(() => {
  document.body.innerHTML = '';
  delete (window as { pwned?: unknown }).pwned;
});

describe('sanitizeHtml', () => {
  it('drops scripts with their content, keeping the text around them', () => {
    const host = dom(sanitizeHtml('<p>before<script>window.pwned = 1</script>after</p>'));
    expect(host.querySelector('script')).toBeNull();
    expect(host.textContent).toBe('beforeafter');
  });

  it('removes event-handler attributes of every kind', () => {
    const host = dom(
      sanitizeHtml(
        '<p onclick="window.pwned=1" onmouseover="x()">a</p><a href="https://ok.example" onfocus="x()" autofocus>b</a><details open ontoggle="x()">c</details>',
      ),
    );
    expect(attributes(host).filter((a) => /\[on|autofocus/.test(a))).toEqual([]);
    expect(host.textContent).toBe('abc');
  });

  it('removes images entirely, with their onerror and remote address', () => {
    const host = dom(sanitizeHtml('<p>x<img src=x onerror="window.pwned=1">y<img src="https://tracker.example/p.gif"></p>'));
    expect(host.querySelector('img')).toBeNull();
    expect(host.innerHTML).not.toMatch(/onerror|tracker/);
  });

  it('turns javascript:, data: and vbscript: links into plain text', () => {
    const cases = [
      'javascript:window.pwned=1',
      ' JaVaScRiPt:window.pwned=1',
      'java\tscript:alert(1)',
      '&#106;avascript:alert(1)',
      'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ];
    for (const href of cases) {
      const host = dom(sanitizeHtml(`<a href="${href}">claim prize</a>`));
      // Not a link that looks like one and does nothing: text, as the words around it.
      expect(host.querySelector('a'), href).toBeNull();
      expect(host.querySelector('span.defused-link')?.textContent, href).toBe('claim prize');
      expect(host.textContent).toBe('claim prize');
      host.remove();
    }
  });

  it('keeps http(s) links and marks them noopener noreferrer, without a target', () => {
    const host = dom(sanitizeHtml('<a href="https://example.org/a?b=1" target="_blank" rel="opener">source</a>'));
    const link = host.querySelector('a');
    expect(link?.getAttribute('href')).toBe('https://example.org/a?b=1');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
    expect(link?.hasAttribute('target')).toBe(false);
  });

  it('resolves relative links against the page address, and drops them without one', () => {
    expect(dom(sanitizeHtml('<a href="/about">about</a>', 'https://news.example/story/1')).querySelector('a')?.getAttribute('href')).toBe(
      'https://news.example/about',
    );
    expect(dom(sanitizeHtml('<a href="/about">about</a>')).querySelector('a')).toBeNull();
    // An in-app route in foreign content must not navigate the app.
    expect(dom(sanitizeHtml('<a href="#/settings">settings</a>')).querySelector('a')).toBeNull();
  });

  it('removes iframes, frames, objects and embeds with their content', () => {
    const host = dom(
      sanitizeHtml('<iframe src="https://example.com" srcdoc="<script>x()</script>">in</iframe><object data="x.swf">o</object><embed src="x"><frameset><frame src="y"></frameset>ok'),
    );
    expect(host.querySelector('iframe, object, embed, frame, frameset')).toBeNull();
    expect(host.textContent).toBe('ok');
  });

  it('removes style elements, style attributes, classes and ids', () => {
    const host = dom(
      sanitizeHtml('<style>body{display:none}</style><p style="position:fixed;inset:0" class="card primary" id="screen-title" name="x">text</p>'),
    );
    expect(host.querySelector('style')).toBeNull();
    expect(attributes(host)).toEqual([]);
    expect(host.textContent).toBe('text');
  });

  it('removes SVG and MathML, including the classic namespace-confusion payloads', () => {
    const payloads = [
      '<svg onload="window.pwned=1"><script>window.pwned=1</script></svg>',
      '<svg><a xlink:href="javascript:window.pwned=1"><text x="20" y="20">click</text></a></svg>',
      '<svg><animate onbegin="window.pwned=1" attributeName="x" dur="1s"/></svg>',
      '<math><mtext><table><mglyph><style><img src=x onerror="window.pwned=1"></style></mglyph></table></mtext></math>',
      '<svg></p><style><a id="</style><img src=1 onerror=window.pwned=1>">',
      '<form><math><mtext></form><form><mglyph><style></math><img src onerror=window.pwned=1>',
    ];
    for (const payload of payloads) {
      const host = dom(sanitizeHtml(payload));
      expect(host.querySelector('svg, math, script, img, style, form'), payload).toBeNull();
      expect(attributes(host).filter((a) => /\[on|javascript/i.test(a)), payload).toEqual([]);
      host.remove();
    }
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it('removes forms, inputs, meta refreshes, base and link elements', () => {
    const host = dom(
      sanitizeHtml(
        '<form action="https://evil.example"><input name="password"><button formaction="javascript:x()">go</button></form><meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/"><link rel="stylesheet" href="https://evil.example/s.css">text',
      ),
    );
    expect(host.querySelector('form, input, button, meta, base, link')).toBeNull();
    expect(host.textContent).toBe('text');
  });

  it('removes data- and aria- attributes', () => {
    const host = dom(sanitizeHtml('<p data-testid="cost-chip" aria-label="Stop" role="button">x</p>'));
    expect(attributes(host)).toEqual([]);
  });

  it('keeps ordinary document structure', () => {
    const html = sanitizeHtml(
      '<article><h1>Title</h1><p>Para with <strong>bold</strong>, <em>em</em> and <code>code</code>.</p><ul><li>one</li></ul><table><thead><tr><th>h</th></tr></thead><tbody><tr><td>d</td></tr></tbody></table><blockquote>q</blockquote></article>',
    );
    const host = dom(html);
    for (const tag of ['article', 'h1', 'strong', 'em', 'code', 'ul', 'li', 'table', 'thead', 'th', 'td', 'blockquote']) {
      expect(host.querySelector(tag), tag).not.toBeNull();
    }
  });

  it('reduces a whole crawled document to its readable body', () => {
    const page =
      '<!DOCTYPE html><html><head><title>Secret title</title><script src="https://cdn.example/x.js"></script></head><body onload="window.pwned=1"><h1>Headline</h1><p>Body</p></body></html>';
    const host = dom(sanitizeHtml(page, 'https://news.example/a'));
    expect(host.querySelector('h1')?.textContent).toBe('Headline');
    expect(host.textContent).not.toContain('Secret title');
    expect(host.querySelector('script, body, html, head')).toBeNull();
  });
});

describe('renderMarkdown', () => {
  it('renders headings, lists, emphasis and citations as links', () => {
    const host = dom(renderMarkdown('## Storms\n\n- **Floods**: rivers rose ([Web](https://news.example/floods))\n- plain https://auto.example/x\n'));
    expect(host.querySelector('h2')?.textContent).toBe('Storms');
    expect(host.querySelectorAll('li')).toHaveLength(2);
    expect(host.querySelector('strong')?.textContent).toBe('Floods');
    const link = host.querySelector('a[href="https://news.example/floods"]');
    expect(link?.textContent).toBe('Web');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('renders raw HTML inside the Markdown inert', () => {
    const host = dom(
      renderMarkdown(
        '## <img src=x onerror="window.pwned=1"> title\n\nOur WAF logs today: <script>window.pwned=1</script> lol <svg onload=window.pwned=1> <a href="javascript:window.pwned=1">claim prize</a> <iframe src="https://example.com"></iframe>',
      ),
    );
    expect(host.querySelector('img, script, svg, iframe')).toBeNull();
    expect(host.querySelector('a')).toBeNull();
    expect(attributes(host).filter((a) => /\[on/.test(a))).toEqual([]);
    expect(host.textContent).toContain('claim prize');
  });

  it('keeps Markdown links only when they are http(s)', () => {
    const host = dom(renderMarkdown('[a](javascript:window.pwned=1) [b](data:text/html,x) [c](https://ok.example) [d](<javascript:alert(1)>)'));
    const hrefs = Array.from(host.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(hrefs.filter((href) => href !== null)).toEqual(['https://ok.example/']);
  });

  it('turns images into links to them, so nothing loads from a third party', () => {
    const host = dom(renderMarkdown('![chart of "rain"](https://img.example/chart.png) ![x](javascript:alert(1))'));
    expect(host.querySelector('img')).toBeNull();
    const links = host.querySelectorAll('a');
    expect(links[0]?.getAttribute('href')).toBe('https://img.example/chart.png');
    expect(links[0]?.textContent).toBe('Image: chart of "rain"');
    expect(links).toHaveLength(1);
    expect(host.querySelector('span.defused-link')?.textContent).toBe('Image: x');
  });

  it('shows, where the reader wrote it, what was taken out and a defused link\'s address', () => {
    const source =
      'See <img src="https://tracker.example/p.gif"> and <script>window.pwned=1</script> then [the claim](javascript:alert(1)) ' +
      'and [notes](notes.md). <iframe src="https://example.com">in</iframe><form><input name="q"><b>kept</b></form>';
    const host = dom(renderMarkdown(source, { showRemoved: true }));
    expect(host.querySelector('img, script, iframe, input, form, a')).toBeNull();
    expect(Array.from(host.querySelectorAll('.removed-note')).map((note) => note.textContent)).toEqual([
      '[image removed]',
      '[script removed]',
      ' (link not opened: javascript:alert(1))',
      ' (link not opened: notes.md)',
      '[embedded page removed]',
      '[form field removed]',
    ]);
    expect(host.textContent).toContain('the claim (link not opened: javascript:alert(1))');
    expect(host.textContent).toContain('kept');
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
    // Elsewhere (an AI answer, a crawled page) nothing is added.
    const quiet = dom(renderMarkdown(source));
    expect(quiet.querySelector('.removed-note')).toBeNull();
    expect(quiet.textContent).not.toContain('removed');
  });

  it('renders an unfinished answer (cut mid-token) without throwing', () => {
    expect(() => renderMarkdown('## Head\n\n- **bold but not clo')).not.toThrow();
    expect(dom(renderMarkdown('Partial <a href="javascript:x')).querySelector('a[href]')).toBeNull();
  });
});
