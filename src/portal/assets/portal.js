// Progressive enhancement only: every page works without this script.
document.addEventListener('DOMContentLoaded', () => {
  // Copy buttons appear only where the clipboard can be written.
  if (navigator.clipboard) {
    for (const button of document.querySelectorAll('button.copy[data-copy]')) {
      button.hidden = false;
      button.addEventListener('click', async () => {
        await navigator.clipboard.writeText(button.dataset.copy);
        button.textContent = 'Copied';
        setTimeout(() => {
          button.textContent = 'Copy';
        }, 2000);
      });
    }
  }
  // A chosen Flow JSON file fills the text area, which is what the form sends.
  for (const picker of document.querySelectorAll('input[type=file][data-fills]')) {
    picker.hidden = false;
    const label = document.querySelector(`label[for="${picker.id}"]`);
    if (label) label.hidden = false;
    picker.addEventListener('change', async () => {
      const file = picker.files?.[0];
      const target = document.getElementById(picker.dataset.fills);
      if (file && target) target.value = await file.text();
    });
  }
});
