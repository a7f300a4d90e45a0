// @overlay-remove isBrandCheck
