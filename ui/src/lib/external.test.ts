import { describe, expect, it, vi } from 'vitest';
import { routeWebLinksToBrowser, webLinkOf } from './external';

function link(href: string, text = 'a link') {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.innerHTML = `<span>${text}</span>`;
  document.body.append(anchor);
  return anchor;
}

describe('web links', () => {
  it('finds the address of a click inside a link', () => {
    const anchor = link('https://example.org/report');
    expect(webLinkOf(anchor.querySelector('span'))).toBe('https://example.org/report');
    expect(webLinkOf(document.body)).toBeNull();
  });

  it('sends http(s) clicks to the browser and leaves app links alone', () => {
    const open = vi.fn();
    const remove = routeWebLinksToBrowser(document, open);
    const web = link('https://x.com/a/status/1');
    const inApp = link('#/x?q=news');
    const hostile = link('javascript:alert(1)');

    const webClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    web.querySelector('span')!.dispatchEvent(webClick);
    expect(open).toHaveBeenCalledWith('https://x.com/a/status/1');
    expect(webClick.defaultPrevented).toBe(true);

    const inAppClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    inApp.dispatchEvent(inAppClick);
    expect(inAppClick.defaultPrevented).toBe(false);
    const hostileClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    hostile.dispatchEvent(hostileClick);
    expect(hostileClick.defaultPrevented).toBe(true);
    expect(open).toHaveBeenCalledTimes(1);

    remove();
    web.click();
    expect(open).toHaveBeenCalledTimes(1);
  });
});
