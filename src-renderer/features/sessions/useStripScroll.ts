import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

export interface StripScroll {
  ref: RefObject<HTMLDivElement | null>;
  /** More tabs hide past the left / right edge. */
  canLeft: boolean;
  canRight: boolean;
  /** Scrolls by most of the strip's width, one way (-1) or the other (1). */
  page: (direction: -1 | 1) => void;
}

/** Pixels per "line" when a wheel reports lines (Firefox with a mouse) rather than pixels. */
const LINE_PX = 16;

/**
 * Scrolling for a row of tabs wider than its room: a vertical wheel scrolls it sideways (a mouse has
 * no sideways wheel), the caller's arrows page it, and the element with `revealId` is scrolled into
 * view whenever it or `revealKey` changes (the active tab, a tab just opened), not while the person
 * scrolls the strip.
 */
export function useStripScroll(revealId: string | null, revealKey: unknown): StripScroll {
  const ref = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ canLeft: false, canRight: false });
  /**
   * The person scrolled the strip (wheel, swipe, arrows) since the last reveal: a size change of the
   * revealed tab then leaves the strip where they put it. Not read from scrollLeft, which the browser
   * also moves by itself (focusing the rename field scrolls it into view).
   */
  const personScrolled = useRef(false);

  const measure = useCallback(() => {
    const el = ref.current;
    if (!el) return;
    // A pixel of slack: fractional widths leave scrollLeft a hair short of the end.
    const canLeft = el.scrollLeft > 1;
    const canRight = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setEdges((e) => (e.canLeft === canLeft && e.canRight === canRight ? e : { canLeft, canRight }));
  }, []);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (el.scrollWidth <= el.clientWidth || e.ctrlKey) return;
      personScrolled.current = true;
      // A touchpad's sideways swipe already scrolls the strip; only turn up/down into sideways.
      if (Math.abs(e.deltaX) >= Math.abs(e.deltaY)) return;
      e.preventDefault();
      el.scrollLeft += e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * LINE_PX : e.deltaY;
    };
    const onTouch = () => (personScrolled.current = true);
    el.addEventListener('wheel', onWheel, { passive: false });
    el.addEventListener('touchmove', onTouch, { passive: true });
    el.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    // Tabs come, go and are renamed without the strip itself changing size.
    const mutation = new MutationObserver(measure);
    mutation.observe(el, { childList: true, subtree: true, characterData: true });
    measure();
    return () => {
      el.removeEventListener('wheel', onWheel);
      el.removeEventListener('touchmove', onTouch);
      el.removeEventListener('scroll', measure);
      resize.disconnect();
      mutation.disconnect();
    };
  }, [measure]);

  useLayoutEffect(() => {
    const el = ref.current;
    const target = revealId === null ? null : document.getElementById(revealId);
    if (!el || !target || !el.contains(target)) return;
    const reveal = () => {
      // By hand rather than scrollIntoView, which would also scroll the page around the strip.
      const box = el.getBoundingClientRect();
      const at = target.getBoundingClientRect();
      const left = at.left - box.left + el.scrollLeft;
      const right = left + at.width;
      if (left < el.scrollLeft) el.scrollLeft = left;
      else if (right > el.scrollLeft + el.clientWidth) el.scrollLeft = right - el.clientWidth;
      measure();
    };
    personScrolled.current = false;
    reveal();
    // The revealed tab can grow after it is shown (renamed, a badge added): keep all of it in view,
    // unless the person has scrolled the strip since, which a badge changing must not undo.
    const resize = new ResizeObserver(() => {
      if (!personScrolled.current) reveal();
    });
    resize.observe(target);
    return () => resize.disconnect();
  }, [revealId, revealKey, measure]);

  const page = useCallback((direction: -1 | 1) => {
    const el = ref.current;
    personScrolled.current = true;
    if (el) el.scrollBy({ left: direction * Math.max(80, el.clientWidth * 0.8), behavior: 'smooth' });
  }, []);

  return { ref, ...edges, page };
}
