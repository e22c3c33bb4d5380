// The stage: one document that shows the scene the hash names (#page=notes-en.html&theme=dark),
// so scenes change without loading a new document. Text only OCR can read is drawn here: on a
// canvas sized to its text, and inside an image (a PNG made from a canvas, alt="").
const FONT = '30px "Noto Sans CJK SC", sans-serif';

function paint(canvas, text, ink, paper) {
  const g = canvas.getContext('2d');
  g.font = FONT;
  canvas.width = Math.ceil(g.measureText(text).width) + 24;
  canvas.height = 52;
  g.fillStyle = paper;
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = ink;
  g.font = FONT;
  g.textBaseline = 'middle';
  g.fillText(text, 12, canvas.height / 2);
}

function show() {
  const wanted = new URLSearchParams(location.hash.slice(1));
  const theme = wanted.get('theme') === 'dark' ? 'dark' : 'light';
  const ink = theme === 'dark' ? '#e8e8e8' : '#111111';
  const paper = theme === 'dark' ? '#1b1d22' : '#ffffff';
  document.documentElement.dataset.theme = theme;
  const template = [...document.querySelectorAll('template')].find((t) => t.dataset.page === wanted.get('page'));
  const stage = document.getElementById('stage');
  stage.replaceChildren(...(template ? [template.content.cloneNode(true)] : []));
  const section = stage.querySelector('section');
  document.documentElement.lang = section?.lang ?? 'en';
  // The page and theme are in the title: the window's title (and the tree's frame) says which scene is up.
  document.title = `${section?.dataset.title ?? 'Grounding'} · ${wanted.get('page') || 'empty'} · ${theme}`;
  for (const canvas of document.querySelectorAll('canvas[data-text]')) paint(canvas, canvas.dataset.text, ink, paper);
  for (const img of document.querySelectorAll('img[data-text]')) {
    const canvas = document.createElement('canvas');
    paint(canvas, img.dataset.text, ink, paper);
    img.src = canvas.toDataURL('image/png');
    img.width = canvas.width;
    img.height = canvas.height;
  }
}

addEventListener('hashchange', show);
show();
