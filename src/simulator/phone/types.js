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
 *   context?: { id?: string, message_id?: string }, reaction?: { message_id?: string, emoji?: string },
 * }} Content
 * @typedef {{ code: number, title: string, details: string }} SendError
 * @typedef {{ type: string, text?: string, link?: string, id?: string, filename?: string } & Place} FilledHeader
 * @typedef {{
 *   type: 'quick_reply' | 'url' | 'phone_number' | 'copy_code' | 'otp', index: number, text: string,
 *   payload?: string, url?: string, phone_number?: string, code?: string,
 *   otp_type?: 'COPY_CODE' | 'ONE_TAP', autofill_text?: string, package_name?: string,
 * }} FilledButton
 * @typedef {{ index: number, header: FilledHeader, body?: string, buttons: FilledButton[] }} FilledCard
 * @typedef {{
 *   header?: FilledHeader, body: string, footer?: string, buttons: FilledButton[], cards?: FilledCard[],
 * }} FilledTemplate
 * @typedef {{
 *   id: string, direction: 'in' | 'out', business: string, type: string, interactive_type?: string,
 *   rendered: string, template?: FilledTemplate, content: Content, status: string, timestamp: string,
 *   error?: SendError,
 * }} ChatMessage
 * @typedef {{ id: string, title?: string, examples: Record<string, unknown>, html: string }} FlowScreen
 * @typedef {{ name?: string, next?: { name?: string }, payload?: unknown, url?: string }} FlowAction
 * @typedef {Node | string | null | undefined | false} Child
 * @typedef {string | number | boolean | null | undefined | Record<string, string | undefined> | ((event: Event) => void)} PropValue
 */

/**
 * What the message views need from the page: where the phone's routes are, the messages already shown
 * (for quotes), what a tap on an interactive message does, and a short notice for the user ("Code
 * copied").
 * @typedef {{
 *   phoneUrl: (path: string) => string,
 *   shown: (id: string) => ChatMessage | undefined,
 *   send: (body: Record<string, unknown>) => Promise<boolean>,
 *   openList: (message: ChatMessage) => void,
 *   openFlow: (message: ChatMessage) => void,
 *   openLocation: () => void,
 *   notify: (text: string) => void,
 * }} ChatHooks
 */

export {};
