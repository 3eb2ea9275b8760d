// @ts-check
// Progressive enhancement only: every page works without this script. Type-checked by
// `npm run typecheck` (tsconfig.json beside it).
document.addEventListener('DOMContentLoaded', () => {
  // Copy buttons appear only where the clipboard can be written.
  if (navigator.clipboard) {
    for (const button of document.querySelectorAll('button.copy[data-copy]')) {
      if (!(button instanceof HTMLButtonElement)) continue;
      button.hidden = false;
      button.addEventListener('click', async () => {
        await navigator.clipboard.writeText(button.dataset.copy ?? '');
        button.textContent = 'Copied';
        setTimeout(() => {
          button.textContent = 'Copy';
        }, 2000);
      });
    }
  }
  // A chosen Flow JSON file fills the text area, which is what the form sends.
  for (const picker of document.querySelectorAll('input[type=file][data-fills]')) {
    if (!(picker instanceof HTMLInputElement)) continue;
    picker.hidden = false;
    const label = document.querySelector(`label[for="${picker.id}"]`);
    if (label instanceof HTMLElement) label.hidden = false;
    picker.addEventListener('change', async () => {
      const file = picker.files?.[0];
      const target = document.getElementById(picker.dataset.fills ?? '');
      if (file && target instanceof HTMLTextAreaElement) target.value = await file.text();
    });
  }
});
