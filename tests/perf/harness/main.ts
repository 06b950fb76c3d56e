/**
 * Test-only page: the product's VirtualList rendering the product's PostCard for 10,000
 * generated posts, so the perf spec can scroll a list of that size in the real webview.
 * Built by tests/perf/harness/serve.ts with the UI's own Vite and Svelte; never shipped.
 */
import { mount } from 'svelte';
import '../../../ui/src/app.css';
import Harness from './Harness.svelte';
import { generatePosts } from './posts';

const count = Number(new URLSearchParams(window.location.search).get('posts') ?? 10_000);
const target = document.getElementById('app');
if (!target) throw new Error('perf harness: #app is missing');

const posts = generatePosts(count);
mount(Harness, { target, props: { posts } });
