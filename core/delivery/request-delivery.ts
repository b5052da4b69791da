/**
 * @module request-delivery
 * The delivery a request gets for a result of a known type: the options it named (already
 * parsed), or its client's profile when it named none, checked against the type (400s before
 * anything is computed).
 */
import { createHostError } from '../errors.ts';
import { checkDeliveryFits, isResultType } from './check-delivery.ts';
import { hasFormat } from './formats.ts';
import { withClientProfile, type ClientProfileSettings } from './client-profile.ts';
import { deliveredType, type DeliveryOptions } from './delivery-options.ts';

export function resolveDelivery(asked: DeliveryOptions, type: string, userAgent: string | undefined, settings: ClientProfileSettings): DeliveryOptions {
  checkDeliveryFits(asked, type);
  if (asked.format !== undefined && isResultType(type) && !hasFormat(deliveredType(type, asked), asked.format)) {
    throw createHostError('SPC_ERR_DELIVERY_FORMAT_UNAVAILABLE', asked.format, deliveredType(type, asked));
  }
  return isResultType(type) ? withClientProfile(asked, type, userAgent, settings) : asked;
}
