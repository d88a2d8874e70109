// Escaping of untrusted state text for the page: markup, quotes, control characters, bidi.
import { describe, expect, it } from 'vitest';
import { escapeHtml, markup as html, inlineCode, raw } from '../../src/ui/html.js';

describe('escapeHtml', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it('makes control characters visible and keeps tab and newline', () => {
    expect(escapeHtml('a\u001b[31mred\u0000\u007f\tb\nc')).toBe('a␛[31mred␀␡\tb\nc');
    expect(escapeHtml('over\rwrite')).toBe('over␍write');
    expect(escapeHtml('\u0085')).toBe('\ufffd');
  });

  it('shows bidi overrides instead of letting them reorder the text', () => {
    expect(escapeHtml('ok\u202egnp.exe')).toBe('ok\ufffdgnp.exe');
    expect(escapeHtml('\u2066x\u2069')).toBe('\ufffdx\ufffd');
  });

  it('leaves ordinary Unicode alone', () => {
    expect(escapeHtml('分页 — ✓ é')).toBe('分页 — ✓ é');
  });
});

describe('html', () => {
  it('escapes interpolated values but not fragments it built', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner} ${'<script>'}</p>`.text).toBe('<p><b>&lt;i&gt;</b> &lt;script&gt;</p>');
  });

  it('joins arrays and drops null, undefined and false', () => {
    expect(html`${['<', raw('<br>'), null, undefined, false, 0]}`.text).toBe('&lt;<br>0');
  });

  it('renders backtick spans as code, escaped inside and out', () => {
    expect(inlineCode('run `rm <x>` & see', 'c').text).toBe(
      'run <code class="c">rm &lt;x&gt;</code> &amp; see',
    );
    expect(inlineCode('no `closing').text).toBe('no `closing');
  });
});
