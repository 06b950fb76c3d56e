import { afterEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { mockIPC } from '@tauri-apps/api/mocks';
import Web from './Web.svelte';
import { makeCheck } from '../../test/fixtures';
import type { CommandError } from '$lib/bindings/CommandError';

type Sent = { cmd: string; request: Record<string, unknown> };

class Rejection {
  constructor(readonly error: CommandError) {}
}

function outcome(body: unknown, cost = '0.0025') {
  return { historyId: 1, body, billing: { cost, usage_count: 1, service: 'web_search', currency: 'USD' }, fromCache: false, replayed: false, hasMore: false };
}

function backend(answer: (sent: Sent) => unknown) {
  const sent: Sent[] = [];
  mockIPC((cmd, args) => {
    if (cmd === 'estimate_cost') return makeCheck('0.0025');
    if (cmd === 'web_search' || cmd === 'web_crawl') {
      const call = { cmd, ...(args as object) } as Sent;
      sent.push(call);
      const result = answer(call);
      if (result instanceof Rejection) throw result.error;
      return result;
    }
  });
  return sent;
}

/** A page of `size` results starting after `start`. */
function page(start: number, size = 10) {
  return {
    data: Array.from({ length: size }, (_, i) => ({
      title: `Result ${start + i + 1}`,
      snippet: `Snippet ${start + i + 1}`,
      link: `https://site.example/page-${start + i + 1}`,
    })),
  };
}

const hostilePage = `<!DOCTYPE html><html><head><title>T</title><style>body{display:none}</style><script>window.pwned=1</script></head>
<body onload="window.pwned=2"><article><h1>Barrier report</h1>
<p>Our WAF logs today: &lt;script&gt;alert('pwned')&lt;/script&gt; lol</p>
<p style="position:fixed">Tested <img src="https://tracker.example/p.gif" onerror="window.pwned=3"> overnight.</p>
<iframe src="https://evil.example"></iframe><svg onload="window.pwned=4"></svg>
<a href="javascript:window.pwned=5">claim prize</a> <a href="/related">Related story</a>
<form action="https://evil.example"><input name="p"></form></article></body></html>`;

afterEach(() => {
  delete (window as { pwned?: unknown }).pwned;
});

describe('Web', () => {
  it('searches and pages through the results, repeating the search that was sent', async () => {
    const sent = backend((call) => (call.cmd === 'web_search' ? outcome(page(call.request.start as number, call.request.start === 20 ? 4 : 10)) : null));
    render(Web);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search the web' }), 'flood barriers{Enter}');

    expect(await screen.findByRole('link', { name: 'Result 1' })).toHaveAttribute('href', 'https://site.example/page-1');
    expect(screen.getByText('Page 1 · results 1–10')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    expect(sent[0]?.request).toEqual({ query: 'flood barriers', start: 0 });

    // Paging repeats the search as sent, even if the field has changed since.
    await user.clear(screen.getByRole('textbox', { name: 'Search the web' }));
    await user.type(screen.getByRole('textbox', { name: 'Search the web' }), 'something else');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('link', { name: 'Result 11' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Result 1' })).toBeNull();
    expect(sent[1]?.request).toEqual({ query: 'flood barriers', start: 10 });

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 3 · results 21–24')).toBeInTheDocument();
    // A short page is the last one.
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByRole('link', { name: 'Result 11' })).toBeInTheDocument();
    expect(sent[3]?.request).toEqual({ query: 'flood barriers', start: 10 });
    expect(within(screen.getByRole('form', { name: 'Web search' })).getByTestId('cost-chip')).toHaveTextContent('$0.0025');
  });

  it('reads a result as plain text, markup shown as text', async () => {
    const sent = backend((call) =>
      call.cmd === 'web_search' ? outcome(page(0, 2)) : outcome("Barrier report\n\nOur WAF logs today: <script>window.pwned=1</script> lol\n"),
    );
    render(Web);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search the web' }), 'flood{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Read here: Result 2' }));

    const pane = await screen.findByRole('article', { name: 'Page content' });
    expect(sent[1]).toEqual(expect.objectContaining({ cmd: 'web_crawl', request: { url: 'https://site.example/page-2', format: 'text' } }));
    expect(within(pane).getByTestId('page-text')).toHaveTextContent('Our WAF logs today: <script>window.pwned=1</script> lol');
    expect(pane.querySelector('script')).toBeNull();
    expect(screen.getByRole('textbox', { name: 'Page address' })).toHaveValue('https://site.example/page-2');
  });

  it('shows crawled HTML only sanitised: nothing runs, loads or poses as the app', async () => {
    const sent = backend(() => outcome(hostilePage));
    render(Web);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Page address' }), 'https://news.example/story/1');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Read as' }), 'Cleaned-up HTML');
    await user.click(screen.getByRole('button', { name: 'Read' }));

    const view = await screen.findByTestId('page-html');
    expect(sent[0]?.request).toEqual({ url: 'https://news.example/story/1', format: 'html' });
    expect(within(view).getByRole('heading', { name: 'Barrier report' })).toBeInTheDocument();
    expect(view).toHaveTextContent("Our WAF logs today: <script>alert('pwned')</script> lol");
    expect(view.querySelector('script, style, img, iframe, svg, form, input, [style], [onload], [onerror]')).toBeNull();
    expect(within(view).getByText('claim prize')).not.toHaveAttribute('href');
    // Relative links resolve against the page, so they open the right address in the browser.
    expect(within(view).getByRole('link', { name: 'Related story' })).toHaveAttribute('href', 'https://news.example/related');
    await user.click(within(view).getByText('claim prize'));
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();

    // The source can be read as text.
    await user.click(screen.getByRole('checkbox', { name: 'Show HTML source' }));
    expect(screen.getByTestId('page-text')).toHaveTextContent('<script>window.pwned=1</script>');
  });

  it('checks the page address before sending, and shows a server refusal under it', async () => {
    const sent = backend(
      () =>
        new Rejection({
          kind: 'service',
          message: 'The service did not accept the request.',
          error: { kind: 'validation', message: 'invalid', fields: [{ field: 'url', message: 'Input should be a valid URL' }], retry_after_secs: null, status: 422, received_events: null },
        }),
    );
    render(Web);
    const user = userEvent.setup();
    const address = screen.getByRole('textbox', { name: 'Page address' });
    await user.type(address, 'example.com/page{Enter}');
    expect(address).toHaveAccessibleDescription('Enter a full web address starting with https://, for example https://example.com/page.');
    expect(sent).toHaveLength(0);

    await user.clear(address);
    await user.type(address, 'https://example.com/page{Enter}');
    await waitFor(() => expect(address).toHaveAccessibleDescription('Input should be a valid URL'));
  });

  it('says when a page cannot be found, with the search left as it was', async () => {
    backend((call) =>
      call.cmd === 'web_search'
        ? outcome(page(0, 1))
        : new Rejection({
            kind: 'service',
            message: 'Page not found: the sandbox web has no page at this URL',
            error: { kind: 'unexpected_status', message: 'not found', fields: [], retry_after_secs: null, status: 404, received_events: null },
          }),
    );
    render(Web);
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Search the web' }), 'flood{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Read here: Result 1' }));
    const pagePane = screen.getByRole('region', { name: 'Page' });
    expect(await within(pagePane).findByRole('alert')).toHaveTextContent('Page not found');
    expect(within(screen.getByRole('region', { name: 'Search results' })).getByRole('link', { name: 'Result 1' })).toBeInTheDocument();
  });

  it('asks for a query before searching', async () => {
    const sent = backend(() => outcome(page(0)));
    render(Web);
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('textbox', { name: 'Search the web' })).toHaveAccessibleDescription('Type what to search the web for.');
    expect(sent).toHaveLength(0);
  });
});
