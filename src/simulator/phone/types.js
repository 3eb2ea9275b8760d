/**
 * The shapes the phone page's modules share, for the type checker only (no browser loads this file): a
 * ChatMessage is views.ts's, its `content` the Graph message body it carries.
 */
// @ts-check

/**
 * @typedef {{ link?: string, id?: string, caption?: string, voice?: boolean, filename?: string }} Media
 * @typedef {{ image?: Media, video?: Media, audio?: Media, document?: Media, sticker?: Media }} MediaParts
 * @typedef {{ latitude?: number, longitude?: number, name?: string, address?: string }} Place
 * @typedef {{ phone: string, type?: string }} ContactPhone
 * @typedef {{ name?: { formatted_name?: string }, phones?: ContactPhone[], emails?: { email: string }[] }} ContactCard
 * @typedef {{ id?: string, title?: string, description?: string }} Choice
 * @typedef {MediaParts & { type?: string, text?: string }} Header
 * @typedef {{ flow_cta?: string, url?: string, display_text?: string }} ActionParameters
 * @typedef {{ title?: string, rows?: Choice[] }} ListSection
 * @typedef {{ buttons?: { reply?: Choice }[], button?: string, sections?: ListSection[], parameters?: ActionParameters }} Action
 * @typedef {{
 *   type?: string, header?: Header, body?: { text?: string }, footer?: { text?: string }, action?: Action,
 *   nfm_reply?: { body?: string }, button_reply?: Choice, list_reply?: Choice,
 * }} Interactive
 * @typedef {MediaParts & {
 *   text?: { body?: string }, location?: Place, contacts?: ContactCard[], interactive?: Interactive,
 *   context?: { id?: string, message_id?: string },
 * }} Content
 * @typedef {{ code: number, title: string, details: string }} SendError
 * @typedef {{
 *   id: string, direction: 'in' | 'out', business: string, type: string, interactive_type?: string,
 *   rendered: string, content: Content, status: string, timestamp: string, error?: SendError,
 * }} ChatMessage
 * @typedef {{ id: string, title?: string, examples: Record<string, unknown>, html: string }} FlowScreen
 * @typedef {{ name?: string, next?: { name?: string }, payload?: unknown, url?: string }} FlowAction
 * @typedef {Node | string | null | undefined | false} Child
 * @typedef {string | number | boolean | null | undefined | Record<string, string | undefined> | ((event: Event) => void)} PropValue
 */

/**
 * What the message views need from the page: where the phone's routes are, the messages already shown
 * (for quotes), and what a tap on an interactive message does.
 * @typedef {{
 *   phoneUrl: (path: string) => string,
 *   shown: (id: string) => ChatMessage | undefined,
 *   send: (body: Record<string, unknown>) => Promise<boolean>,
 *   openList: (message: ChatMessage) => void,
 *   openFlow: (message: ChatMessage) => void,
 *   openLocation: () => void,
 * }} ChatHooks
 */

export {};
