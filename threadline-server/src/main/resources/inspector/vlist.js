// A virtualised list of rows of varying height: only the rows in view (plus a few) are in the DOM,
// so a transcript of 10,000 messages costs what 30 do. Heights are estimated until a row has been
// shown once, then measured (a ResizeObserver keeps them right when a row grows, e.g. "show all").

export class VirtualList {
  /**
   * @param scroller the scrolling element (overflow: auto; position: relative)
   * @param render   (index) => Element for row `index`
   * @param estimate the height to assume for a row never shown
   */
  constructor(scroller, render, { estimate = 80, overscan = 6 } = {}) {
    this.scroller = scroller;
    this.render = render;
    this.estimate = estimate;
    this.overscan = overscan;
    this.count = 0;
    this.heights = [];
    this.offsets = new Float64Array(1);
    this.dirty = true;
    this.rows = new Map(); // index -> element in the DOM
    this.spacer = document.createElement('div');
    this.spacer.className = 'vlist-spacer';
    scroller.append(this.spacer);
    this.frame = 0;
    this.resizes = new ResizeObserver(entries => {
      let changed = false;
      for (const e of entries) {
        const i = Number(e.target.dataset.index);
        if (this.rows.get(i) === e.target && this.measure(i, e.target)) changed = true;
      }
      if (changed) this.schedule();
    });
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(scroller);
  }

  /** The number of rows changed (rows keep their measured heights by index); re-renders. */
  setCount(n, { stickToBottom = false } = {}) {
    const wasAtBottom = this.atBottom();
    this.count = n;
    this.heights.length = n;
    this.dirty = true;
    this.refresh();
    if (stickToBottom && wasAtBottom) this.scrollToEnd();
  }

  /** Forget every row's element and height (the rows' contents changed), then render again. */
  reset(n) {
    for (const el of this.rows.values()) { this.resizes.unobserve(el); el.remove(); }
    this.rows.clear();
    this.heights = new Array(n);
    this.count = n;
    this.dirty = true;
    this.paint();
  }

  /** Re-renders the rows in view from scratch (their data changed). */
  refresh() {
    for (const el of this.rows.values()) { this.resizes.unobserve(el); el.remove(); }
    this.rows.clear();
    this.paint();
  }

  atBottom() {
    const s = this.scroller;
    return s.scrollHeight - s.scrollTop - s.clientHeight < 40;
  }

  scrollToEnd() {
    this.layout();
    this.scroller.scrollTop = this.offsets[this.count];
    this.paint();
    // measured heights may move the end: once more after the browser has laid the rows out
    requestAnimationFrame(() => { this.scroller.scrollTop = this.scroller.scrollHeight; this.paint(); });
  }

  scrollToIndex(i) {
    this.layout();
    this.scroller.scrollTop = this.offsets[Math.max(0, Math.min(i, this.count))];
    this.paint();
  }

  /** The index of the first row in view. */
  firstVisible() {
    this.layout();
    return this.find(this.scroller.scrollTop);
  }

  schedule() {
    if (!this.frame) this.frame = requestAnimationFrame(() => { this.frame = 0; this.paint(); });
  }

  measure(i, el) {
    const h = el.offsetHeight;
    if (h > 0 && this.heights[i] !== h) {
      this.heights[i] = h;
      this.dirty = true;
      return true;
    }
    return false;
  }

  layout() {
    if (!this.dirty) return;
    if (this.offsets.length !== this.count + 1) this.offsets = new Float64Array(this.count + 1);
    let y = 0;
    for (let i = 0; i < this.count; i++) {
      this.offsets[i] = y;
      y += this.heights[i] ?? this.estimate;
    }
    this.offsets[this.count] = y;
    this.spacer.style.height = y + 'px';
    this.dirty = false;
  }

  /** The row at offset y (binary search over the offsets). */
  find(y) {
    let lo = 0, hi = Math.max(0, this.count - 1);
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= y) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  paint() {
    // keep the first row in view where it is while rows above it get their measured heights
    for (let pass = 0; pass < 3; pass++) {
      this.layout();
      const top = this.scroller.scrollTop;
      const anchor = this.count ? this.find(top) : 0;
      const anchorShift = top - this.offsets[anchor];
      const view = this.scroller.clientHeight || 600;
      const first = Math.max(0, anchor - this.overscan);
      let last = anchor;
      while (last < this.count - 1 && this.offsets[last + 1] < top + view) last++;
      last = Math.min(this.count - 1, last + this.overscan);
      for (const [i, el] of this.rows) {
        if (i < first || i > last) { this.resizes.unobserve(el); el.remove(); this.rows.delete(i); }
      }
      let changed = false;
      for (let i = first; i <= last; i++) {
        let el = this.rows.get(i);
        if (!el) {
          el = this.render(i);
          el.dataset.index = i;
          el.classList.add('vlist-row');
          this.scroller.append(el);
          this.rows.set(i, el);
          this.resizes.observe(el);
        }
        el.style.transform = `translateY(${this.offsets[i]}px)`;
        if (this.measure(i, el)) changed = true;
      }
      if (!changed) return;
      this.layout();
      if (this.count && anchor < this.count) this.scroller.scrollTop = this.offsets[anchor] + anchorShift;
      for (const [i, el] of this.rows) el.style.transform = `translateY(${this.offsets[i]}px)`;
    }
  }
}
