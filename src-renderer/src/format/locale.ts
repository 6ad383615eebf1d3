/** The user's locale for every date and number the UI prints. */
export const userLocale: string = (typeof navigator !== 'undefined' && navigator.language) || 'en';
