/**
 * Reads whose answers may come back out of order. A view that reads the same record again on
 * each event (a progress step, records changed) asks one read after another, but the answers
 * arrive in any order: a read asked before the record changed can answer after one asked since,
 * and would put the old state back on screen for good. `take` gives a read's answer (or throws
 * its error) only when no read asked after it has answered already, with a value or an error;
 * otherwise `null`. The newest outcome stands: an old answer never clears a newer failure.
 */
export class NewestAnswer {
  #asked = 0;
  #answered = 0;

  async take<T>(read: () => Promise<T>): Promise<{ answer: T } | null> {
    const mine = ++this.#asked;
    try {
      const answer = await read();
      if (mine < this.#answered) return null;
      this.#answered = mine;
      return { answer };
    } catch (error) {
      if (mine < this.#answered) return null;
      this.#answered = mine;
      throw error;
    }
  }

  /**
   * Counts a value the view was handed another way (a command's reply carries the new state)
   * as the newest answer: reads asked before it no longer apply theirs.
   */
  supersede(): void {
    this.#answered = ++this.#asked;
  }
}
