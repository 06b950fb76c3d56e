/**
 * One Ask request's lifecycle: the streamed events folded into an answer and source lists as
 * they arrive, Stop, errors that keep what arrived and the final outcome. Running, the
 * budget-warning resend and retry come from RequestLifecycle (lib/request.svelte.ts). No DOM
 * here: the screen renders it.
 */
import { aiSearch, aiSearchStream, asCommandError, cancelStream, type StreamMessage } from '$lib/ipc';
import { RequestLifecycle } from '$lib/request.svelte';
import type { AiSearchRequest } from '$lib/bindings/AiSearchRequest';
import type { AiSearchResult } from '$lib/bindings/AiSearchResult';
import type { LinkResult } from '$lib/bindings/LinkResult';
import type { LinkScore } from '$lib/bindings/LinkScore';
import type { Outcome } from '$lib/bindings/Outcome';
import type { Post } from '$lib/bindings/Post';
import { TOOLS } from '$lib/tools';
import { markFirstDeltaReceived, resetDeltaMarks } from './marks';

/**
 * `sending`: asked, nothing back yet; `searching`: accepted, sources arriving; `writing`: the
 * answer is arriving; then `done`, `stopped` (the user's Stop) or `failed`.
 */
export type Phase = 'idle' | 'sending' | 'searching' | 'writing' | 'done' | 'stopped' | 'failed';

export class AskRun extends RequestLifecycle<AiSearchRequest> {
  phase = $state<Phase>('idle');
  /** The answer's Markdown so far: the text deltas, replaced by the completion when it comes. */
  answer = $state('');
  /** Link results by result key (`search`, `reddit_search`…), as each source reports. */
  links = $state<Record<string, LinkResult[]>>({});
  /** The X tool's posts, or null until it reports. */
  posts = $state<Post[] | null>(null);
  scores = $state<Record<string, LinkScore>>({});
  outcome = $state<Outcome<AiSearchResult> | null>(null);
  /** The service wrote an empty summary (it failed to summarise). */
  summaryFailed = $state(false);
  /** The tools and answer kind asked for, for the panels and status. */
  asked = $state<AiSearchRequest | null>(null);
  startedAt = $state(0);
  finishedAt = $state(0);
  /** Set at the first piece of the answer; the screen clears it once that is painted. */
  firstDeltaPending = $state(false);

  /** Guards against events of an older request arriving after a new one began. */
  private generation = 0;
  private stopRequested = false;
  private started = false;

  get busy(): boolean {
    return this.phase === 'sending' || this.phase === 'searching' || this.phase === 'writing';
  }

  /** A stream that Stop can end. */
  get stoppable(): boolean {
    return this.busy && this.request?.streaming === true;
  }

  get hasContent(): boolean {
    return this.answer !== '' || this.posts !== null || Object.keys(this.links).length > 0;
  }

  override dismiss(): void {
    super.dismiss();
    if (this.phase === 'failed' && !this.hasContent) this.phase = 'idle';
  }

  /** Stops the stream; everything that arrived stays. */
  async stop(): Promise<void> {
    if (!this.stoppable) return;
    this.stopRequested = true;
    // Before `started` the command has not registered the stream yet: cancel then.
    if (!this.started) return;
    const stopped = await cancelStream(this.requestId).catch(() => false);
    // False: the stream had already ended, so the answer is complete, not stopped.
    if (!stopped) {
      this.stopRequested = false;
      if (this.phase === 'stopped') this.phase = 'done';
    }
  }

  private reset(request: AiSearchRequest): void {
    this.phase = 'sending';
    this.answer = '';
    this.links = {};
    this.posts = null;
    this.scores = {};
    this.error = null;
    this.outcome = null;
    this.summaryFailed = false;
    this.asked = request;
    this.startedAt = performance.now();
    this.finishedAt = 0;
    this.firstDeltaPending = false;
    this.stopRequested = false;
    this.started = false;
    resetDeltaMarks();
  }

  protected async go(confirmBudget: boolean): Promise<void> {
    const request = this.request;
    if (request === null) return;
    const generation = ++this.generation;
    this.reset(request);
    const options = { requestId: this.requestId, confirmBudget };
    try {
      const outcome = request.streaming
        ? await aiSearchStream(request, (message) => generation === this.generation && this.receive(message), options).result
        : await aiSearch(request, options);
      if (generation !== this.generation) return;
      this.outcome = outcome;
      this.absorb(outcome.body);
      this.phase = this.stopRequested ? 'stopped' : 'done';
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = asCommandError(error);
      this.phase = 'failed';
    } finally {
      if (generation === this.generation) this.finishedAt = performance.now();
    }
  }

  private receive(message: StreamMessage): void {
    if (message.type === 'started') {
      this.started = true;
      this.phase = 'searching';
      if (this.stopRequested) void cancelStream(this.requestId).catch(() => false);
      return;
    }
    const event = message.event;
    switch (event.kind) {
      case 'link_results':
        this.links = { ...this.links, [event.tool]: [...(this.links[event.tool] ?? []), ...event.results] };
        break;
      case 'tweets':
        this.posts = [...(this.posts ?? []), ...event.tweets];
        break;
      case 'link_scores':
        this.scores = { ...this.scores, ...event.scores };
        break;
      case 'text':
        this.addText(this.answer + event.text);
        break;
      case 'completion':
        // The whole summary, last. Empty means the service failed to write one: keep the deltas.
        if (event.text) this.addText(event.text);
        else this.summaryFailed = this.answer === '';
        break;
      // `error` ends the stream: the command then rejects with it, which `go` shows.
      // `flow`, unknown and unreadable events carry nothing to show.
      default:
        break;
    }
  }

  private addText(text: string): void {
    if (this.answer === '' && text !== '') {
      markFirstDeltaReceived();
      this.firstDeltaPending = true;
    }
    this.answer = text;
    if (this.phase === 'searching' || this.phase === 'sending') this.phase = 'writing';
  }

  /** The assembled result: it holds every event's content (and is all a replay or non-stream gets). */
  private absorb(body: AiSearchResult): void {
    const links: Record<string, LinkResult[]> = {};
    for (const tool of TOOLS) {
      const value = body[tool.resultKey];
      if (tool.id !== 'twitter' && Array.isArray(value)) links[tool.resultKey] = value as LinkResult[];
    }
    if (Object.keys(links).length > 0) this.links = links;
    if (body.tweets) this.posts = body.tweets;
    if (body.miner_link_scores) this.scores = { ...this.scores, ...body.miner_link_scores };
    const summary = body.completion || body.text || '';
    if (summary) this.addText(summary);
    this.summaryFailed = summary === '' && body.completion === '' && this.answer === '';
  }
}
