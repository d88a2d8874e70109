// Chinese and mixed Chinese/English/code state: counted exactly like gpt-tokenizer counts it, and
// cut at item boundaries only (never inside a multi-byte character, a list item or a code block).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeAll, describe, expect, it } from 'vitest';
import { heuristicTokens, loadO200kCounter } from '../../src/boot/o200k-counter.js';
import { renderBoot } from '../../src/boot/render-boot.js';
import type { BootContext, TokenCounter } from '../../src/boot/types.js';
import { parseGoals } from '../../src/state/goals.js';
import { FIXTURE_DIR, richContext } from '../fixtures/boot/rich-context.js';

const plain = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function chineseContext(): BootContext {
  const context = richContext({
    goals: parseGoals(readFileSync(join(FIXTURE_DIR, 'goals-zh.md'), 'utf8')).goals,
  });
  const p = context.progress;
  p.stage = '实现中';
  p.next_action =
    '在 src/routes/todos.js 中实现 `page` 和 `limit`（对存储层结果切片），然后运行 `node --test`';
  p.plan = [
    { id: 't1', title: '为 ?page 和 ?limit 写一个失败的测试', status: 'done' },
    { id: 't2', title: '增加查询参数解析器 parseQuery()', status: 'done' },
    { id: 't3', title: '在路由处理函数中实现分页', status: 'running' },
    { id: 't4', title: '在响应中加入 `next` 链接', status: 'pending' },
    { id: 't5', title: '在 README 中记录查询参数', status: 'blocked', note: '等待 API 风格指南' },
  ];
  p.current_step = { id: 't3', objective: '在路由处理函数中实现分页', denied_tools: ['WebFetch'] };
  p.memory = {
    durable: ['路由处理函数都在 src/routes/ 下，每个资源一个文件'],
    working: ['旧代码里 limit 默认是 50', '种子数据共有 137 条待办'],
  };
  context.markers = [
    { id: 't1', state: 'valid', changed: [] },
    { id: 't2', state: 'valid', changed: [] },
  ];
  context.evidence = context.evidence.map((e, i) => ({
    ...e,
    summary: `测试结果 ${i}：通过 ${10 + i} 个，失败 1 个（分页）`,
    body: `失败的测试是「第 2 页返回第 11–20 条」。\n\n\`\`\`js\nassert.equal(items[0].id, 11); // 实际为 1 🚧\n\`\`\`\n\n处理函数还没有读取 \`page\` 参数。`,
  }));
  context.reminders = [{ text: '合并前问一下用户每页最多多少条', at: '2026-11-30T13:00:00.000Z' }];
  return context;
}

describe('boot with Chinese and mixed text', () => {
  let counter: TokenCounter;
  beforeAll(async () => {
    counter = await loadO200kCounter();
  });

  it('counts the printed text exactly as gpt-tokenizer o200k does', () => {
    for (const level of [1, 2, 3] as const) {
      for (const format of ['markdown', 'xml'] as const) {
        const rendering = renderBoot(chineseContext(), { level, format, counter });
        expect(rendering.tokens.total).toBe(plain(rendering.text));
      }
    }
  });

  it('cuts whole items at every budget down to the floor, keeping the Chinese boundaries', () => {
    const context = chineseContext();
    const goals = context.goals;
    const full = renderBoot(context, { level: 3, counter }).tokens.total;
    const floor = renderBoot(context, { level: 3, budget: 1, counter }).tokens.mustKeep;
    expect(floor).toBeLessThan(full);
    for (let budget = full; budget >= floor; budget -= 3) {
      const { text, tokens } = renderBoot(chineseContext(), { level: 3, budget, counter });
      expect(tokens.total).toBeLessThanOrEqual(budget);
      expect(tokens.total).toBe(plain(text));
      expect(text).not.toMatch(LONE_SURROGATE);
      expect(text).not.toContain('\uFFFD');
      expect((text.match(/```/g) ?? []).length % 2).toBe(0);
      expect(text).toContain(goals.anchor);
      for (const f of goals.forbidden) expect(text).toContain(f.text);
      expect(text).toContain('- 保持响应结构向后兼容：没有 `page` 参数时返回前 50 条');
      expect(text).toContain('  export async function list(req, res) { /* 列表 */ }');
      expect(text).toContain(context.progress.next_action);
      expect(text).toContain('合并前问一下用户每页最多多少条');
      for (const item of [...goals.successCriteria, ...goals.nonGoals]) {
        const partial =
          text.includes(`\n- ${item.slice(0, 12)}`) && !text.includes(`\n- ${item}\n`);
        expect(partial, item).toBe(false);
      }
    }
  });

  it('estimates with --fast: ascii/4, CJK one each, other scripts two a token', () => {
    expect(heuristicTokens('abcdefgh')).toBe(2);
    expect(heuristicTokens('存储层冻结')).toBe(5);
    expect(heuristicTokens('Ωμέγα')).toBe(3);
    expect(heuristicTokens('分页 page')).toBe(4);
    const rendering = renderBoot(chineseContext(), {
      level: 2,
      counter: { name: 'heuristic', count: heuristicTokens },
    });
    expect(rendering.tokens.counter).toBe('heuristic');
    expect(rendering.tokens.total).toBe(heuristicTokens(rendering.text));
  });

  it('counts each code point as the per-character rule does, surrogates and all', () => {
    const CJK =
      /[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
    const byChar = (text: string) => {
      let [ascii, cjk, other] = [0, 0, 0];
      for (const char of text)
        if (char.charCodeAt(0) < 0x80) ascii++;
        else if (CJK.test(char)) cjk++;
        else other++;
      return Math.ceil(ascii / 4 + cjk + other / 2);
    };
    const pieces = [
      'a',
      'plan ',
      '\n',
      '存',
      'Ω',
      '👩‍💻',
      '\ud83d',
      '\ude80',
      'ｶ',
      '\u3000',
      '\uffef',
      '한',
      'é',
    ];
    let seed = 7;
    for (let n = 0; n < 500; n++) {
      let text = '';
      for (let i = 0; i < n % 40; i++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += pieces[seed % pieces.length];
      }
      expect(heuristicTokens(text), JSON.stringify(text)).toBe(byChar(text));
    }
  });
});
