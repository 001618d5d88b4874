<?xml version="1.0" encoding="UTF-8"?>
<!-- seawx: wind swaths by threshold, translucent fills (SLD 1.1 / SE 1.1). -->
<StyledLayerDescriptor version="1.1.0" xmlns="http://www.opengis.net/sld" xmlns:se="http://www.opengis.net/se" xmlns:ogc="http://www.opengis.net/ogc" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/sld http://schemas.opengis.net/sld/1.1.0/StyledLayerDescriptor.xsd">
  <NamedLayer><se:Name>wind_swaths</se:Name><UserStyle><se:Name>wind_swaths</se:Name>
    <se:FeatureTypeStyle>
      <se:Rule><se:Name>34</se:Name><se:Description><se:Title>34 kt wind swath</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>threshold_kt</ogc:PropertyName><ogc:Literal>34</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PolygonSymbolizer><se:Fill><se:SvgParameter name="fill">#ffd700</se:SvgParameter><se:SvgParameter name="fill-opacity">0.3</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#ffd700</se:SvgParameter><se:SvgParameter name="stroke-width">1</se:SvgParameter></se:Stroke></se:PolygonSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>50</se:Name><se:Description><se:Title>50 kt wind swath</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>threshold_kt</ogc:PropertyName><ogc:Literal>50</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PolygonSymbolizer><se:Fill><se:SvgParameter name="fill">#ff8c00</se:SvgParameter><se:SvgParameter name="fill-opacity">0.3</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#ff8c00</se:SvgParameter><se:SvgParameter name="stroke-width">1</se:SvgParameter></se:Stroke></se:PolygonSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>64</se:Name><se:Description><se:Title>64 kt (hurricane force) wind swath</se:Title></se:Description>
        <ogc:Filter><ogc:PropertyIsEqualTo><ogc:PropertyName>threshold_kt</ogc:PropertyName><ogc:Literal>64</ogc:Literal></ogc:PropertyIsEqualTo></ogc:Filter>
        <se:PolygonSymbolizer><se:Fill><se:SvgParameter name="fill">#e0201b</se:SvgParameter><se:SvgParameter name="fill-opacity">0.3</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#e0201b</se:SvgParameter><se:SvgParameter name="stroke-width">1</se:SvgParameter></se:Stroke></se:PolygonSymbolizer>
      </se:Rule>
      <se:Rule><se:Name>other</se:Name><se:Description><se:Title>Other / null</se:Title></se:Description>
        <se:ElseFilter/>
        <se:PolygonSymbolizer><se:Fill><se:SvgParameter name="fill">#c0c0c0</se:SvgParameter><se:SvgParameter name="fill-opacity">0.3</se:SvgParameter></se:Fill><se:Stroke><se:SvgParameter name="stroke">#c0c0c0</se:SvgParameter><se:SvgParameter name="stroke-width">1</se:SvgParameter></se:Stroke></se:PolygonSymbolizer>
      </se:Rule>
    </se:FeatureTypeStyle>
  </UserStyle></NamedLayer>
</StyledLayerDescriptor>
