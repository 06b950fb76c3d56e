/**
 * The network drawn by sigma.js (WebGL, so thousands of nodes pan and zoom at the display's
 * frame rate in WebKitGTK): accounts as discs sized by their links, edges as arrows coloured by
 * kind. Positions arrive from the layout worker; the camera moves by mouse (drag, wheel) and
 * by the keys Network.svelte passes on. Colours follow the theme; a chosen account is drawn in
 * the accent colour with its neighbours, the rest dimmed.
 */
import Graph from 'graphology';
import Sigma from 'sigma';
import type { Settings } from 'sigma/settings';
import type { Network } from '$lib/bindings/Network';
import type { ChartColors } from './chartTheme';
import { kindColour, nodeSize, nodeStats } from './network';

type Hover = Settings['defaultDrawNodeHover'];

/** The hover label on the theme's surface (sigma's own is white, unreadable in the dark theme). */
function hoverDrawer(colors: () => ChartColors): Hover {
  return (ctx, data, settings) => {
    const theme = colors();
    const size = settings.labelSize;
    ctx.font = `${settings.labelWeight} ${size}px ${settings.labelFont}`;
    const width = data.label ? ctx.measureText(data.label).width + 10 : 0;
    ctx.fillStyle = theme.surface;
    ctx.strokeStyle = theme.border;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.rect(data.x + data.size + 2, data.y - size / 2 - 4, width, size + 8);
    ctx.fill();
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(data.x, data.y, data.size + 2, 0, Math.PI * 2);
    ctx.fillStyle = theme.accent;
    ctx.fill();
    if (data.label) {
      ctx.fillStyle = theme.text;
      ctx.fillText(data.label, data.x + data.size + 7, data.y + size / 3);
    }
  };
}

export class NetworkRenderer {
  private readonly graph = new Graph({ type: 'directed', multi: true, allowSelfLoops: false });
  private readonly sigma: Sigma;
  private readonly ids: string[];
  private colors: ChartColors;
  private selected: string | null = null;
  private neighbours = new Set<string>();

  /** Throws when the window cannot draw WebGL (the caller says so in words). */
  constructor(container: HTMLElement, network: Network, colors: ChartColors, positions: Float32Array, onnode: (id: string) => void) {
    this.colors = colors;
    this.ids = network.nodes.map((node) => node.id);
    const degree = new Map(nodeStats(network).map((node) => [node.id, node.degree]));
    network.nodes.forEach((node, at) => {
      this.graph.addNode(node.id, { label: node.label, x: positions[at * 2] ?? 0, y: positions[at * 2 + 1] ?? 0, size: nodeSize(degree.get(node.id) ?? 0) });
    });
    const heaviest = Math.max(1, ...network.edges.map((edge) => edge.weight));
    for (const edge of network.edges) {
      if (!this.graph.hasNode(edge.source) || !this.graph.hasNode(edge.target)) continue;
      this.graph.addEdgeWithKey(`${edge.kind}:${edge.source}>${edge.target}`, edge.source, edge.target, {
        kind: edge.kind,
        size: 0.6 + 2.4 * Math.sqrt(edge.weight / heaviest),
      });
    }
    this.sigma = new Sigma(this.graph, container, {
      allowInvalidContainer: true,
      // Big networks: plain lines, and only the accounts drawn while the view moves, so it follows the hand.
      defaultEdgeType: network.edges.length > 5_000 ? 'line' : 'arrow',
      hideEdgesOnMove: network.edges.length > 2_000,
      hideLabelsOnMove: network.nodes.length > 1_000,
      labelFont: 'sans-serif',
      labelSize: 12,
      labelColor: { color: colors.text },
      labelRenderedSizeThreshold: 8,
      zIndex: true,
      minCameraRatio: 0.02,
      maxCameraRatio: 4,
      defaultDrawNodeHover: hoverDrawer(() => this.colors),
      nodeReducer: (node, data) => {
        const chosen = node === this.selected;
        const near = this.selected === null || chosen || this.neighbours.has(node);
        return {
          ...data,
          color: chosen ? this.colors.accent : near ? this.colors.text : this.colors.border,
          zIndex: chosen ? 2 : near ? 1 : 0,
          label: near ? data.label : null,
          highlighted: chosen,
        };
      },
      edgeReducer: (edge, data) => {
        const touches = this.selected === null || this.graph.source(edge) === this.selected || this.graph.target(edge) === this.selected;
        return { ...data, color: touches ? kindColour(data.kind, this.colors) : this.colors.border, zIndex: touches ? 1 : 0 };
      },
    });
    this.sigma.on('clickNode', ({ node }) => onnode(node));
    this.sigma.on('enterNode', () => container.classList.add('pointing'));
    this.sigma.on('leaveNode', () => container.classList.remove('pointing'));
  }

  /** New positions from the layout, [x0, y0, …] in the network's node order. */
  setPositions(positions: Float32Array): void {
    this.graph.updateEachNodeAttributes((node, attributes) => {
      const at = this.index(node);
      return { ...attributes, x: positions[at * 2] ?? 0, y: positions[at * 2 + 1] ?? 0 };
    });
  }

  setColors(colors: ChartColors): void {
    this.colors = colors;
    this.sigma.setSetting('labelColor', { color: colors.text });
    // The reducers read the colours: a full refresh runs them again (a settings update alone does not).
    this.sigma.refresh();
  }

  select(id: string | null): void {
    this.selected = id !== null && this.graph.hasNode(id) ? id : null;
    this.neighbours = new Set(this.selected ? this.graph.neighbors(this.selected) : []);
    this.sigma.refresh({ skipIndexation: true });
  }

  /** Moves the view by a share of what is shown (keyboard panning). */
  pan(dx: number, dy: number): void {
    const camera = this.sigma.getCamera();
    const state = camera.getState();
    void camera.animate({ x: state.x + dx * state.ratio, y: state.y + dy * state.ratio }, { duration: 120 });
  }

  zoom(inwards: boolean): void {
    const camera = this.sigma.getCamera();
    void (inwards ? camera.animatedZoom({ duration: 150 }) : camera.animatedUnzoom({ duration: 150 }));
  }

  reset(): void {
    void this.sigma.getCamera().animatedReset({ duration: 200 });
  }

  /** After the container was hidden and shown again (its size may have changed). */
  resize(): void {
    this.sigma.resize();
    this.sigma.refresh();
  }

  kill(): void {
    this.sigma.kill();
  }

  private indexes: Map<string, number> | null = null;
  private index(id: string): number {
    this.indexes ??= new Map(this.ids.map((node, at) => [node, at]));
    return this.indexes.get(id) ?? 0;
  }
}
