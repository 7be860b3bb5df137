/**
 * The module pages' own script (`/embedded/assets/module-v1.js`), for what a store does on the spot; every page does
 * the same without it, with a button:
 * - a `select` marked `data-apply-on-change` (the catalog's Sort, the orders' Status) submits its form when changed;
 * - checkout shows the totals, the approval note and the button of the location selected, and marks the form as
 *   quoted for it, so what is placed is what the buyer saw (without script the server re-quotes instead).
 */
document.querySelectorAll<HTMLSelectElement>('select[data-apply-on-change]').forEach((select) => {
  select.addEventListener('change', () => select.form?.requestSubmit());
});

const checkout = document.querySelector<HTMLFormElement>('form[data-checkout]');
if (checkout) {
  const quoted = checkout.querySelector<HTMLInputElement>('input[name="quoted"]');
  const submit = checkout.querySelector<HTMLButtonElement>('button[data-submit]');
  const note = checkout.querySelector<HTMLElement>('[data-testid="approval-note"]');
  const figures = ['subtotal', 'tax-label', 'tax', 'shipping', 'total', 'ship-line'] as const;
  const show = (radio: HTMLInputElement): void => {
    for (const name of figures) {
      const element = checkout.querySelector(`[data-sum="${name}"]`);
      const value = radio.getAttribute(`data-${name}`);
      if (element && value !== null) element.textContent = value;
    }
    const approval = radio.hasAttribute('data-approval');
    if (note) note.hidden = !approval;
    if (submit) submit.textContent = approval ? 'Submit for approval' : 'Place order';
    checkout.action = (approval ? checkout.dataset.approvals : checkout.dataset.orders) ?? checkout.action;
    if (quoted) quoted.value = radio.value;
  };
  checkout.addEventListener('change', (event) => {
    if (event.target instanceof HTMLInputElement && event.target.name === 'location') show(event.target);
  });
  // A page restored from history may come back with another radio checked than the one it was quoted for.
  const selected = checkout.querySelector<HTMLInputElement>('input[name="location"]:checked');
  if (selected && !selected.disabled) show(selected);
}
