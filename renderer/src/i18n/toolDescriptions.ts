import type { Locale } from './index.js';

/**
 * 简体中文 descriptions of the shipped tools, by tool name. The server's description (English, as
 * the model reads it) is shown for tools not listed here: MCP servers' own tools bring their own.
 */
const ZH_CN: Record<string, string> = {
  'agents.delegate': '为其他智能体启动子任务（各有自己的预算和工作区），并行运行并等待；任一子任务未成功即失败。',
  'browser.click': '点击由 ref、文本、角色（加名称）或选择器指定的元素。付款、购买、下单类点击需等待审批。',
  'browser.extract_text': '页面或某个元素的可见文本；标记为不可信内容。',
  'browser.fill': '替换文本输入框的值。',
  'browser.navigate': '在任务浏览器中打开 http(s) 网址。主机必须在允许列表（networkAllow）中或经过审批。',
  'browser.press': '在当前焦点元素或目标上按键（如 Enter、Tab、Control+A）。提交付款、购买、下单表单的 Enter 需等待审批。',
  'browser.screenshot': '把页面保存为 PNG，放入任务工作区。',
  'browser.scroll': '滚动页面（或把目标滚动到可见处）。',
  'browser.select': '按值或标签选择 <select> 的选项。',
  'browser.snapshot': '以无障碍列表呈现页面：每个元素的角色、名称和稳定的 ref（点击和填写时用 ref 作目标）。',
  'browser.type': '逐键向元素输入文本（用于响应按键的输入框）。',
  'browser.wait_for': '等待元素（或文本）显示或隐藏，或网址匹配。',
  computer:
    '在任务的沙箱桌面上截图、移动、点击、拖动、滚动、输入（任何语言）和按键。坐标以截图的像素空间为准。带 marks: true 的截图会给屏幕上的元素编号并附上图例；用 {"action": "click", "mark": N} 点击其中一个。',
  echo: '原样返回给定的值。可用作空步骤或为计算出的值命名。',
  'fs.delete': '删除任务工作区中的文件、符号链接或（递归时）目录。删除不存在的路径也算成功，deleted 为 false。',
  'fs.list': '列出任务工作区中的文件和目录（可递归），按路径排序。',
  'fs.read': '读取任务工作区中的文件，返回内容、大小和 SHA-256。',
  'fs.write': '以原子方式写入任务工作区中的整个文件，并创建上级目录。同样的内容写两次结果相同。',
  'http.request': '发送 HTTP(S) 请求，返回状态、响应头和正文（JSON 响应会被解析）。非 2xx 状态照常返回，不视为错误。',
  'memory.save': '把一条简短笔记保存到跨会话记忆（本工作区或本智能体），之后的任务可以看到。',
  'memory.search': '全文搜索之前任务记住的笔记（本工作区或本智能体）。',
  'skills.read':
    '载入提示中列出的技能：读取其说明，或用 "file" 读取其文件夹中的一个文件。读取后该技能即处于使用中；若它列出了允许的工具，此后只能调用这些工具。',
  'sandbox.browser_open': '在沙箱的 Chromium 中打开网址（在其桌面上，截图可见）。网络为 "none" 时只能加载 file:// 页面。',
  'sandbox.exec': '在沙箱主目录中以非 root 用户、按其网络策略运行 argv（不经过 shell）。',
  'sandbox.read_file': '读取沙箱主目录下的 UTF-8 文件（内容是不可信数据）。',
  'sandbox.write_file': '向沙箱主目录写入 UTF-8 文件。',
};

/** The tool's description in the reader's language: the catalog's entry by tool name, else the server's text. */
export function toolDescription(locale: Locale, tool: { name: string; description?: string; title?: string }): string {
  const translated = locale === 'zh-CN' ? ZH_CN[tool.name] : undefined;
  return translated ?? (tool.description || tool.title || '');
}

/** Tool names with a 简体中文 description (the unit test pins them to the shipped tools). */
export const TRANSLATED_TOOLS = Object.keys(ZH_CN);
