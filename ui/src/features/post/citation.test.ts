import { describe, expect, it } from 'vitest';
import table from '../../../../crates/store/tests/fixtures/citation-cases.json';
import { citedTime } from '$lib/format';
import { citationMarkdown, escapeMarkdown } from './citation';
import { makePost } from '../../test/fixtures';

// The archive's Markdown export (crates/store, export.rs) runs the same table.
describe('a citation is written as the Rust export writes it', () => {
  describe('escapeMarkdown', () => {
    for (const testCase of table.escape) {
      it(testCase.name, () => expect(escapeMarkdown(testCase.input)).toBe(testCase.expected));
    }
  });

  describe('citedTime', () => {
    for (const testCase of table.times) {
      it(testCase.name, () => expect(citedTime(new Date(testCase.utc), testCase.zone)).toBe(testCase.expected));
    }
  });

  describe('citationMarkdown', () => {
    for (const testCase of table.citations) {
      it(testCase.name, () => {
        const posts = testCase.posts.map((cited) => {
          const post = makePost({ id: cited.id, text: cited.text, url: cited.url, created_at: cited.created_at });
          if (post.user) post.user = { ...post.user, name: cited.author_name, username: cited.author_username };
          return post;
        });
        const expected = testCase.markdown.map((line) => `${line}\n`).join('');
        expect(citationMarkdown(posts, new Date(testCase.fetched_at), testCase.zone)).toBe(expected);
      });
    }
  });
});
